// Deployment starts and conversation lifecycle: when a conversation's room expires (so stale rows never
// keep a deployment "busy"), the provider's room name, indexes for the limit counts, and the password
// attempt counters (kept here, not in memory, so every instance sees the same counts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('conversations').addColumn('expires_at', 'timestamptz').execute();
  await db.schema.alterTable('conversations').addColumn('provider_room', 'text').execute();
  await db.schema
    .createIndex('conversations_deployment_status')
    .on('conversations')
    .columns(['deployment_id', 'status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('conversations_deployment_visitor')
    .on('conversations')
    .columns(['deployment_id', 'visitor_key', 'created_at'])
    .execute();
  await db.schema.createIndex('conversations_owner_status').on('conversations').columns(['owner_id', 'status', 'created_at']).execute();

  await db.schema
    .createTable('deployment_password_attempts')
    .addColumn('deployment_id', 'text', (c) => c.notNull().references('deployments.deployment_id').onDelete('cascade'))
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('blocked_until', 'timestamptz')
    .addPrimaryKeyConstraint('deployment_password_attempts_pk', ['deployment_id', 'client_key'])
    .execute();
}
