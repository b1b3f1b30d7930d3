// A name for "the database these migrations make": a hash of the migration files and the migrator, so a
// migrated image or template kept between runs (pglite-image.ts, pg-template.ts) is remade when one changes.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DB = fileURLToPath(new URL('../../src/server/platform/db/', import.meta.url));

/** 12 hex digits of the migrations' hash, with `extra` (versions of what runs them) mixed in. */
export function migrationsHash(...extra: string[]): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(DB + 'migrations').sort()) hash.update(file).update(readFileSync(`${DB}migrations/${file}`));
  hash.update(readFileSync(DB + 'migrate.ts'));
  for (const e of extra) hash.update(e);
  return hash.digest('hex').slice(0, 12);
}
