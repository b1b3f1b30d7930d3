// Versioned migrations: every file in ./migrations (NNNN_name.ts) runs once, in name order.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';

export interface MigrationContext {
  hasVector: boolean;
}

/** A migration file exports `up(db, ctx)` (and optionally `down`). */
export interface PalkitMigration {
  up(db: Kysely<any>, ctx: MigrationContext): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

class FolderProvider implements MigrationProvider {
  constructor(private readonly ctx: MigrationContext) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    const files = readdirSync(migrationsDir).filter((f) => /^\d{4}_.+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
    for (const file of files) {
      const mod = (await import(pathToFileURL(join(migrationsDir, file)).href)) as PalkitMigration;
      const name = file.replace(/\.(ts|js)$/, '');
      migrations[name] = {
        up: (db) => mod.up(db, this.ctx),
        ...(mod.down ? { down: (db: Kysely<any>) => mod.down!(db) } : {}),
      };
    }
    return migrations;
  }
}

/** `schema`: keep Kysely's bookkeeping tables there. Without it, Kysely finds them in any schema of the
 * database (e.g. another test run's) and skips creating them in the one in use. */
export async function migrateToLatest(db: Kysely<any>, ctx: MigrationContext, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new FolderProvider(ctx), allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
