// Credentials for calling a connector's server: the bearer token, or an OAuth access token refreshed
// automatically shortly before it expires (refresh_token grant). When the refresh is refused the
// connector becomes `needs_reauth` (remedy: Reconnect OAuth).
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { OAuthError, tokenRequest, type TokenResponse } from './oauth-endpoints.js';
import { lockedConnector, type ConnectorRow } from './repository.js';

/** Refresh this long before the recorded expiry, so a token does not lapse mid-request. */
const EXPIRY_MARGIN_MS = 30_000;

export class ConnectorAuthError extends Error {
  constructor(
    readonly code: 'not_linked' | 'needs_reauth' | 'refresh_unavailable',
    message: string,
  ) {
    super(message);
  }
}

type Deps = Pick<ServiceDeps, 'db' | 'fetch' | 'config' | 'secrets' | 'clock'>;

/** Columns storing a token response (refresh token kept when the server did not rotate it). */
export function tokenColumns(deps: Pick<ServiceDeps, 'secrets'>, tokens: TokenResponse, now: Date, requestedScopes: string[] | undefined) {
  const scopes = tokens.scope !== undefined ? tokens.scope.split(/\s+/).filter(Boolean) : (requestedScopes ?? []);
  return {
    access_token_enc: deps.secrets.encrypt(tokens.access_token),
    ...(tokens.refresh_token ? { refresh_token_enc: deps.secrets.encrypt(tokens.refresh_token) } : {}),
    access_token_expires_at:
      tokens.expires_in && Number.isFinite(tokens.expires_in) ? new Date(now.getTime() + tokens.expires_in * 1000) : null,
    oauth_scopes: JSON.stringify(scopes),
    oauth_status: 'linked' as const,
    updated_at: now,
  };
}

const expiring = (row: ConnectorRow, now: Date) =>
  row.access_token_expires_at !== null && row.access_token_expires_at.getTime() - EXPIRY_MARGIN_MS <= now.getTime();

/**
 * A usable OAuth access token for the connector. `force` refreshes even if the token looks valid (the
 * server answered 401). The row lock makes concurrent callers share one refresh, which matters when the
 * authorization server rotates refresh tokens.
 */
export async function oauthAccessToken(deps: Deps, connectorId: string, force = false): Promise<string> {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await lockedConnector(trx, connectorId);
    if (!row) throw new ConnectorAuthError('not_linked', `connector ${connectorId} not found`);
    if (row.oauth_status === 'needs_reauth')
      throw new ConnectorAuthError('needs_reauth', 'the OAuth grant stopped working; use Reconnect OAuth');
    if (!row.access_token_enc)
      throw new ConnectorAuthError('not_linked', 'the connector is not linked yet; complete the OAuth authorization first');
    const now = deps.clock.now();
    if (!force && !expiring(row, now)) return { token: deps.secrets.decrypt(row.access_token_enc) };
    if (!row.refresh_token_enc) return markNeedsReauth(trx, row, now, 'the access token expired and no refresh token was issued');
    try {
      const tokens = await tokenRequest(deps, row, {
        grant_type: 'refresh_token',
        refresh_token: deps.secrets.decrypt(row.refresh_token_enc),
      });
      await trx
        .updateTable('connectors')
        .set(tokenColumns(deps, tokens, now, row.auth_settings.scopes))
        .where('connector_id', '=', row.connector_id)
        .execute();
      return { token: tokens.access_token };
    } catch (error) {
      // The authorization server answered and said no: the grant is gone. Anything else is transient.
      if (error instanceof OAuthError && error.status !== undefined && error.status >= 400 && error.status < 500) {
        return markNeedsReauth(trx, row, now, `token refresh refused: ${error.code}`);
      }
      throw new ConnectorAuthError('refresh_unavailable', error instanceof Error ? error.message : String(error));
    }
  });
  if ('failure' in outcome) throw new ConnectorAuthError('needs_reauth', outcome.failure);
  return outcome.token;
}

async function markNeedsReauth(db: Db, row: ConnectorRow, now: Date, reason: string): Promise<{ failure: string }> {
  await db
    .updateTable('connectors')
    .set({ oauth_status: 'needs_reauth', access_token_enc: null, refresh_token_enc: null, access_token_expires_at: null, updated_at: now })
    .where('connector_id', '=', row.connector_id)
    .execute();
  return { failure: `needs_reauth: ${reason}` };
}

/** The Authorization header value for calls to the connector's server, or null for `none`. */
export async function connectorAuthorization(deps: Deps, row: ConnectorRow, forceRefresh = false): Promise<string | null> {
  if (row.auth_type === 'bearer') return row.bearer_token_enc ? `Bearer ${deps.secrets.decrypt(row.bearer_token_enc)}` : null;
  if (row.auth_type === 'oauth2') return `Bearer ${await oauthAccessToken(deps, row.connector_id, forceRefresh)}`;
  return null;
}
