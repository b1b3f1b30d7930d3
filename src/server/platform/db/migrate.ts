// Versioned migrations: every entry of ./migrations/index.ts (files NNNN_name.ts) runs once, in name order.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { migrations as listed } from './migrations/index.js';
import type { MigrationContext } from './migrations/types.js';

export type { MigrationContext, PalkitMigration } from './migrations/types.js';

/**
 * In a source checkout the folder sits beside this file: a migration added there but not listed would
 * run under tsx tests yet be missing from the compiled service, so it is refused here. The compiled
 * bundle has no such folder beside it and skips the check.
 */
export function unlistedMigrations(folder = fileURLToPath(new URL('./migrations/', import.meta.url))): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /^\d{4}_.+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.(ts|js)$/, ''))
    .filter((name) => !(name in listed));
}

class ListedProvider implements MigrationProvider {
  constructor(private readonly ctx: MigrationContext) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const [name, mod] of Object.entries(listed)) {
      migrations[name] = {
        up: (db) => mod.up(db, this.ctx),
        ...(mod.down ? { down: (db: Kysely<any>) => mod.down!(db) } : {}),
      };
    }
    return migrations;
  }
}

export async function migrateToLatest(db: Kysely<any>, ctx: MigrationContext): Promise<void> {
  const unlisted = unlistedMigrations();
  if (unlisted.length) throw new Error(`migrations ${unlisted.join(', ')} are not listed in src/server/platform/db/migrations/index.ts`);
  // Kysely looks for its migration tables in every schema unless told which one: name the current one,
  // or a leftover test schema holding them makes a fresh schema skip creating its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrationTableSchema = rows[0]?.schema ?? 'public';
  if (await allApplied(db, migrationTableSchema)) return; // the usual restart: one read instead of the migrator's dozen statements
  const migrator = new Migrator({ db, provider: new ListedProvider(ctx), allowUnorderedMigrations: true, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Whether every listed migration has run already (false when the migration table does not exist yet). */
async function allApplied(db: Kysely<any>, schema: string): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.id(schema, 'kysely_migration')}`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return Object.keys(listed).every((name) => applied.has(name));
  } catch {
    return false;
  }
}
