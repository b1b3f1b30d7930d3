// What a migration file is, apart from migrate.ts (which imports the list of them), so the migration files
// and their index never import the module that runs them (no import cycle).
import type { Kysely } from 'kysely';

export interface MigrationContext {
  hasVector: boolean;
}

/** A migration file exports `up(db, ctx)` (and optionally `down`). */
export interface PalkitMigration {
  up(db: Kysely<any>, ctx: MigrationContext): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}
