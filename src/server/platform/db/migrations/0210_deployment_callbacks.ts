// Deployments may name a callback_url (a palkit extension): the conversations their visitors start send
// their callbacks there, as a conversation created with callback_url does.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deployments').addColumn('callback_url', 'text').execute();
}
