// Every row of every table of the test database as one string: to prove a secret is stored nowhere in clear.
import { sql } from 'kysely';
import type { Db } from '../../src/server/platform/db/database.js';

export async function databaseText(db: Db): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const parts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql`select * from ${sql.table(table_name)}`.execute(db);
    parts.push(JSON.stringify(rows.rows, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v)));
  }
  return parts.join('\n');
}
