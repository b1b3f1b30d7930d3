// The core domain: faces, PALs and their skills, deployments, conversations, memory stores.
// Flexible parts of a resource (the PAL's layers, a deployment's customization) live in jsonb.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('faces')
    .addColumn('face_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('face_name', 'text', (c) => c.notNull())
    .addColumn('train_video_url', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('training_progress', 'text', (c) => c.notNull().defaultTo('0/100'))
    .addColumn('error_message', 'text')
    .addColumn('thumbnail_video_url', 'text')
    .addColumn('thumbnail_image_url', 'text')
    .addColumn('model_name', 'text')
    .addColumn('face_type', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('faces_owner').on('faces').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('pals')
    .addColumn('pal_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('pal_name', 'text', (c) => c.notNull())
    .addColumn('pipeline_mode', 'text', (c) => c.notNull().defaultTo('full'))
    .addColumn('default_face_id', 'text')
    .addColumn('created_via', 'text', (c) => c.notNull().defaultTo('pals'))
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('pals_owner').on('pals').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('pal_skills')
    .addColumn('pal_id', 'text', (c) => c.notNull().references('pals.pal_id').onDelete('cascade'))
    .addColumn('skill_id', 'text', (c) => c.notNull())
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('attached_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('pal_skills_pk', ['pal_id', 'skill_id'])
    .execute();

  await db.schema
    .createTable('deployments')
    .addColumn('deployment_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('pal_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text')
    .addColumn('customization', 'jsonb', (c) => c.notNull())
    .addColumn('limits', 'jsonb', (c) => c.notNull())
    .addColumn('allowed_origins', 'jsonb', (c) => c.notNull())
    .addColumn('usage_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('deployments_owner').on('deployments').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('conversations')
    .addColumn('conversation_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('pal_id', 'text', (c) => c.notNull())
    .addColumn('face_id', 'text')
    .addColumn('deployment_id', 'text')
    .addColumn('conversation_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('conversation_url', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('conversational_context', 'text')
    .addColumn('custom_greeting', 'text')
    .addColumn('memory_stores', 'jsonb', (c) => c.notNull())
    .addColumn('properties', 'jsonb', (c) => c.notNull())
    .addColumn('visitor_key', 'text')
    .addColumn('shutdown_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('conversations_owner').on('conversations').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('conversations_deployment').on('conversations').columns(['deployment_id', 'created_at']).execute();

  await db.schema
    .createTable('memory_stores')
    .addColumn('memory_store_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('pinned_memories')
    .addColumn('memory_id', 'text', (c) => c.primaryKey())
    .addColumn('memory_store_id', 'text', (c) => c.notNull().references('memory_stores.memory_store_id').onDelete('cascade'))
    .addColumn('memory', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('pinned_memories_store').on('pinned_memories').columns(['memory_store_id', 'created_at']).execute();
}
