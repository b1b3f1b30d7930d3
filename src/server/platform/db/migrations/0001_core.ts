// Accounts, API keys, service settings, the jobs table, webhook deliveries and stored media.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('owners')
    .addColumn('owner_id', 'integer', (c) => c.primaryKey())
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('owners.owner_id').onDelete('cascade'))
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('service_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('job_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_deliveries_owner').on('webhook_deliveries').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_group').on('webhook_deliveries').columns(['group_id', 'seq']).execute();

  await db.schema
    .createTable('media')
    .addColumn('media_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
