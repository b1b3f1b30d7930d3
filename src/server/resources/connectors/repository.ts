// Connectors in SQL: ownership checks and the wire view (no secret ever leaves through here).
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ConnectorTables } from '../../platform/db/tables/connectors.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import { isoNoZone } from '../../platform/time.js';

export type ConnectorRow = Selectable<ConnectorTables['connectors']>;

const stamp = (d: Date | null) => (d ? isoNoZone(d) : null);

export function connectorView(row: ConnectorRow) {
  const s = row.auth_settings ?? {};
  const auth_config =
    row.auth_type === 'oauth2'
      ? {
          type: 'oauth2' as const,
          ...(s.client_id !== undefined ? { client_id: s.client_id } : {}),
          ...(s.authorization_url !== undefined ? { authorization_url: s.authorization_url } : {}),
          ...(s.token_url !== undefined ? { token_url: s.token_url } : {}),
          ...(s.scopes !== undefined ? { scopes: s.scopes } : {}),
        }
      : { type: row.auth_type };
  return {
    connector_id: row.connector_id,
    owner_id: row.owner_id,
    team_id: row.team_id,
    name: row.name,
    source: row.source,
    server_url: row.server_url,
    auth_config,
    selected_tool_names: null,
    oauth_status: row.oauth_status,
    oauth_scopes: row.oauth_scopes ?? [],
    // The spec's field is a string: present while an expiring access token is held, omitted otherwise.
    ...(row.access_token_expires_at ? { access_token_expires_at: isoNoZone(row.access_token_expires_at) } : {}),
    last_indexed_at: stamp(row.last_indexed_at),
    last_index_error: row.last_index_error,
    created_at: isoNoZone(row.created_at),
    updated_at: isoNoZone(row.updated_at),
  };
}

/** The connector when the owner may use it; 404 when missing, 403 when another owner's. */
export async function ownedConnector(db: Db, ownerId: number, id: string, forUpdate = false): Promise<ConnectorRow> {
  let q = db.selectFrom('connectors').selectAll().where('connector_id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(`connector ${id} not found`);
  if (row.owner_id !== ownerId) throw forbidden(`connector ${id} belongs to another account`);
  return row;
}

export async function lockedConnector(db: Db, id: string): Promise<ConnectorRow | undefined> {
  return db.selectFrom('connectors').selectAll().where('connector_id', '=', id).forUpdate().executeTakeFirst();
}
