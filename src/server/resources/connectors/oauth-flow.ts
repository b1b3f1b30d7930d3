// The OAuth 2.0 authorization-code flow with PKCE (S256) for a connector: issue an authorization
// address (state and verifier stored, single use, 10 minutes), then complete it at the public callback
// by exchanging the code at the token endpoint and storing the tokens encrypted.
import { createHash, randomBytes } from 'node:crypto';
import type { ServiceDeps } from '../../platform/context.js';
import type { OAuthStatus } from '../../platform/db/tables/connectors.js';
import { ApiError, badRequest, conflict } from '../../platform/http/errors.js';
import { tokenColumns } from './access.js';
import { OAuthError, oauthEndpoints, tokenRequest } from './oauth-endpoints.js';
import { ownedConnector, type ConnectorRow } from './repository.js';
import { IMPORT_JOB } from './tools.js';

const FLOW_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = '/v2/connectors/oauth/callback';

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export function redirectUri(publicUrl: string): string {
  return `${publicUrl}${CALLBACK_PATH}`;
}

/**
 * Issues a new authorization address (any earlier unfinished one stops working). `reconnect` also drops
 * the stored tokens first: Reconnect OAuth, the remedy for `needs_reauth`.
 */
export async function startAuthorization(
  deps: ServiceDeps,
  ownerId: number,
  connectorId: string,
  options: { returnUrl?: string; reconnect: boolean },
): Promise<string> {
  const row = await ownedConnector(deps.db, ownerId, connectorId);
  if (row.auth_type !== 'oauth2') throw conflict(`connector ${connectorId} does not use OAuth (auth_config.type is ${row.auth_type})`);
  const returnUrl = options.returnUrl === undefined ? null : checkReturnUrl(options.returnUrl);
  let endpoints;
  try {
    endpoints = await oauthEndpoints(deps, row);
  } catch (error) {
    if (error instanceof OAuthError) throw badRequest(`${error.code}: ${error.message}`);
    throw error;
  }
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const now = deps.clock.now();
  const redirect = redirectUri(deps.config.publicUrl);
  await deps.db.transaction().execute(async (trx) => {
    const locked = await ownedConnector(trx, ownerId, connectorId, true);
    const earlier = await trx
      .deleteFrom('connector_oauth_flows')
      .where('connector_id', '=', connectorId)
      .returning('prior_status')
      .executeTakeFirst();
    // A re-issued address remembers the status from before the first unfinished one.
    const prior = locked.oauth_status === 'pending' ? (earlier?.prior_status ?? 'pending') : locked.oauth_status;
    await trx
      .insertInto('connector_oauth_flows')
      .values({
        state_hash: sha256(state),
        connector_id: connectorId,
        owner_id: ownerId,
        code_verifier_enc: deps.secrets.encrypt(verifier),
        redirect_uri: redirect,
        return_url: returnUrl,
        prior_status: prior,
        expires_at: new Date(now.getTime() + FLOW_TTL_MS),
        created_at: now,
      })
      .execute();
    await trx
      .updateTable('connectors')
      .set({
        oauth_status: 'pending',
        updated_at: now,
        ...(endpoints.discovered ? { oauth_metadata: JSON.stringify(endpoints.discovered) } : {}),
        ...(options.reconnect ? { access_token_enc: null, refresh_token_enc: null, access_token_expires_at: null } : {}),
      })
      .where('connector_id', '=', connectorId)
      .execute();
  });
  const url = new URL(endpoints.authorization);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', row.auth_settings.client_id ?? '');
  url.searchParams.set('redirect_uri', redirect);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', sha256(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (row.auth_settings.scopes?.length) url.searchParams.set('scope', row.auth_settings.scopes.join(' '));
  url.searchParams.set('resource', row.server_url);
  return url.toString();
}

function checkReturnUrl(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'https:' || u.protocol === 'http:') return u.toString();
  } catch {
    /* below */
  }
  throw badRequest('invalid_request: return_url: must be an http or https URL');
}

export interface CallbackResult {
  connectorId: string;
  returnUrl: string | null;
}

/** Completes the flow named by `state`; throws 400 ApiErrors for every way it can fail. */
export async function completeAuthorization(
  deps: ServiceDeps,
  query: { code?: string; state?: string; error?: string },
): Promise<CallbackResult> {
  if (!query.state) throw badRequest('invalid_request: state is missing');
  const now = deps.clock.now();
  // Single use: the flow row is consumed whatever happens next.
  const flow = await deps.db
    .deleteFrom('connector_oauth_flows')
    .where('state_hash', '=', sha256(query.state))
    .returningAll()
    .executeTakeFirst();
  if (!flow) throw badRequest('invalid_state: unknown or already used authorization state');
  const row = await deps.db.selectFrom('connectors').selectAll().where('connector_id', '=', flow.connector_id).executeTakeFirst();
  if (!row || row.auth_type !== 'oauth2') throw badRequest('invalid_state: the connector no longer uses OAuth');
  if (flow.expires_at.getTime() < now.getTime()) {
    await settleUnfinished(deps, row, flow.prior_status, now);
    throw badRequest('state_expired: the authorization took too long; request a new authorization address');
  }
  if (query.error || !query.code) {
    await settleUnfinished(deps, row, flow.prior_status, now);
    throw badRequest(`authorization_denied: ${(query.error ?? 'no code returned').slice(0, 100)}`);
  }
  try {
    const tokens = await tokenRequest(deps, row, {
      grant_type: 'authorization_code',
      code: query.code,
      redirect_uri: flow.redirect_uri,
      code_verifier: deps.secrets.decrypt(flow.code_verifier_enc),
    });
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('connectors')
        .set(tokenColumns(deps, tokens, now, row.auth_settings.scopes))
        .where('connector_id', '=', row.connector_id)
        .execute();
      await deps.jobs.enqueue(IMPORT_JOB, { connector_id: row.connector_id }, { db: trx, maxAttempts: 1 });
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    await settleUnfinished(deps, row, flow.prior_status, now);
    throw badRequest(`token_exchange_failed: ${error instanceof OAuthError ? error.code : 'token endpoint unreachable'}`);
  }
  return { connectorId: row.connector_id, returnUrl: flow.return_url };
}

/**
 * A flow that ended without new tokens (denied, expired, refused exchange): `linked` if a token is still
 * held, `needs_reauth` if the connector had been linked before (its grant is gone), else `pending`: an
 * OAuth connector that was never linked still awaits its first authorization (`none` is only for
 * connectors that do not use OAuth).
 */
async function settleUnfinished(deps: ServiceDeps, row: ConnectorRow, prior: OAuthStatus, now: Date): Promise<void> {
  const still = await deps.db
    .selectFrom('connector_oauth_flows')
    .select('state_hash')
    .where('connector_id', '=', row.connector_id)
    .executeTakeFirst();
  if (still) return; // a newer authorization is under way
  await deps.db
    .updateTable('connectors')
    .set({
      oauth_status: row.access_token_enc ? 'linked' : prior === 'linked' || prior === 'needs_reauth' ? 'needs_reauth' : 'pending',
      updated_at: now,
    })
    .where('connector_id', '=', row.connector_id)
    .where('oauth_status', '=', 'pending')
    .execute();
}
