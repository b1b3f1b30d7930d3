// Objectives (named output variables a conversation should capture) and, per conversation, what each
// objective has captured so far and whether it completed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('objectives')
    .addColumn('objectives_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('objectives_owner').on('objectives').columns(['owner_id', 'created_at']).execute();
  await db.schema
    .createTable('conversation_objectives')
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('objective_name', 'text', (c) => c.notNull())
    .addColumn('output_variables', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('conversation_objectives_pk', ['conversation_id', 'objective_name'])
    .execute();
}
