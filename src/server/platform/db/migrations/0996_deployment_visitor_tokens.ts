// A deployment's secret for visitor tokens (the embedding site's backend signs a visitor's identifiers
// with it, so a public start may reach that visitor's memories): write-only, stored encrypted.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deployments').addColumn('visitor_token_secret_encrypted', 'text').execute();
}
