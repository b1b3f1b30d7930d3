// What a visitor was shown and accepted before and at the start of a conversation: the deployment's terms
// (when it requires consent) and the PAL's AI disclosure as it was delivered, each with its time.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversation_receipts')
    .addColumn('conversation_id', 'text', (c) => c.primaryKey().references('conversations.conversation_id').onDelete('cascade'))
    .addColumn('consent_text', 'text')
    .addColumn('consent_terms_url', 'text')
    .addColumn('consent_accepted_at', 'timestamptz')
    .addColumn('disclosure_visual', 'text')
    .addColumn('disclosure_verbal', 'text')
    .addColumn('disclosure_delivered_at', 'timestamptz')
    .execute();
}
