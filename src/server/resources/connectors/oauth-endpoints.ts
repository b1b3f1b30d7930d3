// The authorization server a connector talks to: configured endpoints, else discovery (RFC 8414) at the
// MCP server's origin, else through its protected-resource metadata (RFC 9728). Token requests too.
import type { ServiceDeps } from '../../platform/context.js';
import type { OAuthServerMetadata } from '../../platform/db/tables/connectors.js';
import type { ConnectorRow } from './repository.js';
import { checkConnectorUrl } from './url-policy.js';

export class OAuthError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

type Deps = Pick<ServiceDeps, 'fetch' | 'config' | 'secrets'>;

async function getJson(deps: Deps, url: string): Promise<Record<string, unknown> | null> {
  try {
    const res = await deps.fetch(url, { headers: { accept: 'application/json' }, timeoutMs: 10_000, maxBytes: 256 * 1024 });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const body = (await res.json()) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `https://as.example/tenant` → `https://as.example/.well-known/<name>/tenant` (RFC 8414 §3.1). */
function wellKnown(issuer: string, name: string): string {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}/.well-known/${name}${path}`;
}

function metadataFrom(doc: Record<string, unknown> | null, outboundAllow: string[]): OAuthServerMetadata | null {
  if (!doc || typeof doc.authorization_endpoint !== 'string' || typeof doc.token_endpoint !== 'string') return null;
  try {
    return {
      authorization_endpoint: checkConnectorUrl('authorization_endpoint', doc.authorization_endpoint, outboundAllow),
      token_endpoint: checkConnectorUrl('token_endpoint', doc.token_endpoint, outboundAllow),
      ...(Array.isArray(doc.token_endpoint_auth_methods_supported)
        ? { token_endpoint_auth_methods_supported: doc.token_endpoint_auth_methods_supported.map(String) }
        : {}),
    };
  } catch {
    return null;
  }
}

export async function discoverAuthorizationServer(deps: Deps, serverUrl: string): Promise<OAuthServerMetadata> {
  const allow = deps.config.outboundAllow;
  const origin = new URL(serverUrl).origin;
  const direct = metadataFrom(await getJson(deps, `${origin}/.well-known/oauth-authorization-server`), allow);
  if (direct) return direct;
  const resource = await getJson(deps, `${origin}/.well-known/oauth-protected-resource`);
  const issuer = Array.isArray(resource?.authorization_servers) ? resource.authorization_servers[0] : undefined;
  if (typeof issuer === 'string') {
    try {
      const found =
        metadataFrom(await getJson(deps, wellKnown(issuer, 'oauth-authorization-server')), allow) ??
        metadataFrom(await getJson(deps, wellKnown(issuer, 'openid-configuration')), allow);
      if (found) return found;
    } catch {
      /* an unusable issuer URL: fall through */
    }
  }
  throw new OAuthError(
    'oauth_discovery_failed',
    `no authorization server metadata at ${origin}/.well-known/oauth-authorization-server; set auth_config.authorization_url and token_url`,
  );
}

/** Endpoints for the connector, discovering what is not configured; `metadata` is set when discovery ran. */
export async function oauthEndpoints(
  deps: Deps,
  row: ConnectorRow,
): Promise<{ authorization: string; token: string; authMethods?: string[]; discovered?: OAuthServerMetadata }> {
  const s = row.auth_settings;
  if (s.authorization_url && s.token_url) return { authorization: s.authorization_url, token: s.token_url };
  const discovered = row.oauth_metadata ?? (await discoverAuthorizationServer(deps, row.server_url));
  return {
    authorization: s.authorization_url ?? discovered.authorization_endpoint,
    token: s.token_url ?? discovered.token_endpoint,
    ...(discovered.token_endpoint_auth_methods_supported ? { authMethods: discovered.token_endpoint_auth_methods_supported } : {}),
    ...(row.oauth_metadata ? {} : { discovered }),
  };
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

/**
 * POSTs a token request (authorization_code or refresh_token grant). Client authentication: HTTP Basic
 * with the client secret, or client_secret_post when the server lists only that; public clients send
 * client_id alone. Error responses become OAuthError with the server's `error` code (never its body).
 */
export async function tokenRequest(deps: Deps, row: ConnectorRow, params: Record<string, string>): Promise<TokenResponse> {
  const endpoints = await oauthEndpoints(deps, row);
  const clientId = row.auth_settings.client_id ?? '';
  const secret = row.client_secret_enc ? deps.secrets.decrypt(row.client_secret_enc) : null;
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const postOnly =
    endpoints.authMethods && endpoints.authMethods.includes('client_secret_post') && !endpoints.authMethods.includes('client_secret_basic');
  if (secret && !postOnly) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  } else {
    form.set('client_id', clientId);
    if (secret) form.set('client_secret', secret);
  }
  let res: Response;
  try {
    res = await deps.fetch(endpoints.token, {
      method: 'POST',
      headers,
      body: form.toString(),
      redirect: 'manual',
      timeoutMs: 15_000,
      maxBytes: 256 * 1024,
    });
  } catch (error) {
    throw new OAuthError(
      'token_endpoint_unreachable',
      `token endpoint unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  if (!res.ok || typeof body.access_token !== 'string') {
    const code = typeof body.error === 'string' ? body.error.slice(0, 100) : `http_${res.status}`;
    throw new OAuthError(code, `token endpoint refused the request: ${code}`, res.status);
  }
  return {
    access_token: body.access_token,
    ...(typeof body.refresh_token === 'string' ? { refresh_token: body.refresh_token } : {}),
    ...(typeof body.expires_in === 'number' || typeof body.expires_in === 'string' ? { expires_in: Number(body.expires_in) } : {}),
    ...(typeof body.scope === 'string' ? { scope: body.scope } : {}),
  };
}
