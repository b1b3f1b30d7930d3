// Row types of connectors (migration 0401). Columns ending in `_enc` hold secrets encrypted with
// deps.secrets.encrypt; they are never returned by the API.
import type { ColumnType } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp, Timestamp } from './core.js';

export type ConnectorAuthType = 'none' | 'bearer' | 'oauth2';
export type OAuthStatus = 'none' | 'pending' | 'linked' | 'needs_reauth';

/** Non-secret part of `auth_config` as the owner set it. */
export interface ConnectorAuthSettings {
  client_id?: string;
  authorization_url?: string;
  token_url?: string;
  scopes?: string[];
}

/** Authorization-server endpoints found through discovery (RFC 8414) when not configured. */
export interface OAuthServerMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  token_endpoint_auth_methods_supported?: string[];
}

export interface ConnectorTables {
  connectors: {
    connector_id: string;
    owner_id: number;
    team_id: string | null;
    name: string;
    source: ColumnType<'mcp', 'mcp' | undefined, 'mcp'>;
    server_url: string;
    auth_type: ConnectorAuthType;
    auth_settings: Json<ConnectorAuthSettings>;
    bearer_token_enc: string | null;
    client_secret_enc: string | null;
    access_token_enc: string | null;
    refresh_token_enc: string | null;
    access_token_expires_at: NullableTimestamp;
    oauth_status: OAuthStatus;
    oauth_scopes: Json<string[]>;
    oauth_metadata: ColumnType<OAuthServerMetadata | null, string | null | undefined, string | null>;
    last_indexed_at: NullableTimestamp;
    last_index_error: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  /** One pending authorization (PKCE verifier and state) per connector; single use. */
  connector_oauth_flows: {
    /** SHA-256 of the `state` parameter, so a database reader cannot complete a flow. */
    state_hash: string;
    connector_id: string;
    owner_id: number;
    code_verifier_enc: string;
    redirect_uri: string;
    return_url: string | null;
    /** oauth_status when the flow began: restored (or turned into needs_reauth) if the flow fails. */
    prior_status: OAuthStatus;
    expires_at: Timestamp;
    created_at: CreatedAt;
  };
  /** Tools imported from the connector's server (the last successful import). */
  connector_tools: {
    connector_id: string;
    name: string;
    description: string | null;
    input_schema: Json<Record<string, unknown>>;
    position: number;
  };
}
