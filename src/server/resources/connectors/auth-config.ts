// Turns an `auth_config` from a request into connector columns: secrets encrypted, non-secret fields
// kept as settings. On update, write-only secrets that are omitted are kept when the type stays the same.
import type { Updateable } from 'kysely';
import type { ConnectorAuthSettings, ConnectorTables } from '../../platform/db/tables/connectors.js';
import { badRequest } from '../../platform/http/errors.js';
import type { Secrets } from '../../platform/secrets.js';
import type { ConnectorRow } from './repository.js';
import type { AuthConfigInput } from './schemas.js';
import { checkConnectorUrl } from './url-policy.js';

type ConnectorUpdate = Updateable<ConnectorTables['connectors']>;

const noOAuthState: ConnectorUpdate = {
  access_token_enc: null,
  refresh_token_enc: null,
  access_token_expires_at: null,
  oauth_scopes: '[]',
  oauth_metadata: null,
};

/**
 * Columns for `input`, given the current row on update (undefined on create). `changedOAuth` is true
 * when an OAuth link (tokens, discovered endpoints, pending flows) no longer applies.
 */
export function authColumns(
  input: AuthConfigInput,
  current: ConnectorRow | undefined,
  secrets: Secrets,
  outboundAllow: string[],
): { columns: ConnectorUpdate; changedOAuth: boolean } {
  switch (input.type) {
    case 'none':
      return {
        columns: {
          auth_type: 'none',
          auth_settings: '{}',
          bearer_token_enc: null,
          client_secret_enc: null,
          oauth_status: 'none',
          ...noOAuthState,
        },
        changedOAuth: current?.auth_type === 'oauth2',
      };
    case 'bearer': {
      let tokenEnc: string | null;
      if (input.token !== undefined) tokenEnc = secrets.encrypt(input.token);
      else if (current?.auth_type === 'bearer' && current.bearer_token_enc) tokenEnc = current.bearer_token_enc;
      else throw badRequest('invalid_request: auth_config.token: Required for bearer authentication');
      return {
        columns: {
          auth_type: 'bearer',
          auth_settings: '{}',
          bearer_token_enc: tokenEnc,
          client_secret_enc: null,
          oauth_status: 'none',
          ...noOAuthState,
        },
        changedOAuth: current?.auth_type === 'oauth2',
      };
    }
    case 'oauth2': {
      const settings: ConnectorAuthSettings = { client_id: input.client_id };
      if (input.authorization_url !== undefined)
        settings.authorization_url = checkConnectorUrl('auth_config.authorization_url', input.authorization_url, outboundAllow);
      if (input.token_url !== undefined) settings.token_url = checkConnectorUrl('auth_config.token_url', input.token_url, outboundAllow);
      if (input.scopes !== undefined) settings.scopes = input.scopes;
      const wasOAuth = current?.auth_type === 'oauth2';
      let secretEnc: string | null = null;
      if (typeof input.client_secret === 'string') secretEnc = secrets.encrypt(input.client_secret);
      else if (input.client_secret === undefined && wasOAuth && current.auth_settings.client_id === input.client_id)
        secretEnc = current.client_secret_enc;
      const sameClient =
        wasOAuth &&
        JSON.stringify(normalise(current.auth_settings)) === JSON.stringify(normalise(settings)) &&
        (input.client_secret === undefined || sameSecret(current.client_secret_enc, input.client_secret, secrets));
      if (sameClient) return { columns: { auth_settings: JSON.stringify(settings), client_secret_enc: secretEnc }, changedOAuth: false };
      // A different client or authorization server: the old link cannot be used any more. An OAuth
      // connector is never `none` (that is for connectors without OAuth): one that had been linked needs
      // Reconnect OAuth (`needs_reauth`), one that never was waits for its first authorization (`pending`).
      const hadGrant =
        wasOAuth && (current.access_token_enc !== null || current.oauth_status === 'linked' || current.oauth_status === 'needs_reauth');
      return {
        columns: {
          auth_type: 'oauth2',
          auth_settings: JSON.stringify(settings),
          bearer_token_enc: null,
          client_secret_enc: secretEnc,
          oauth_status: hadGrant ? 'needs_reauth' : 'pending',
          ...noOAuthState,
        },
        changedOAuth: true,
      };
    }
  }
}

function normalise(s: ConnectorAuthSettings) {
  return {
    client_id: s.client_id,
    authorization_url: s.authorization_url ?? null,
    token_url: s.token_url ?? null,
    scopes: s.scopes ?? null,
  };
}

function sameSecret(storedEnc: string | null, given: string | null, secrets: Secrets): boolean {
  if (given === null) return storedEnc === null;
  return storedEnc !== null && secrets.decrypt(storedEnc) === given;
}
