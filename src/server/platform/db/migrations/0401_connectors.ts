// Connectors to external MCP tool servers, their pending OAuth flows and their imported tools.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connectors')
    .addColumn('connector_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('mcp'))
    .addColumn('server_url', 'text', (c) => c.notNull())
    .addColumn('auth_type', 'text', (c) => c.notNull())
    .addColumn('auth_settings', 'jsonb', (c) => c.notNull())
    .addColumn('bearer_token_enc', 'text')
    .addColumn('client_secret_enc', 'text')
    .addColumn('access_token_enc', 'text')
    .addColumn('refresh_token_enc', 'text')
    .addColumn('access_token_expires_at', 'timestamptz')
    .addColumn('oauth_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('oauth_scopes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('oauth_metadata', 'jsonb')
    .addColumn('last_indexed_at', 'timestamptz')
    .addColumn('last_index_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('connectors_owner').on('connectors').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('connector_oauth_flows')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.connector_id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('code_verifier_enc', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text')
    .addColumn('prior_status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('connector_oauth_flows_connector').on('connector_oauth_flows').column('connector_id').execute();

  await db.schema
    .createTable('connector_tools')
    .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.connector_id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('input_schema', 'jsonb', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_tools_pk', ['connector_id', 'name'])
    .execute();
}
