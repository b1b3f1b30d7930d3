// Guardrails: individual rules and the deprecated sets that group them (one row per rule either way).
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('guardrail_sets')
    .addColumn('guardrails_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('guardrail_sets_owner').on('guardrail_sets').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('guardrails')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('guardrails_id', 'text', (c) => c.references('guardrail_sets.guardrails_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('guardrail_name', 'text', (c) => c.notNull())
    .addColumn('guardrail_prompt', 'text', (c) => c.notNull())
    .addColumn('modality', 'text', (c) => c.notNull().defaultTo('verbal'))
    .addColumn('callback_url', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('guardrails_owner').on('guardrails').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('guardrails_set').on('guardrails').columns(['guardrails_id', 'position']).execute();
}
