// A small OAuth 2.0 authorization server on loopback for connector tests: metadata (RFC 8414),
// /authorize that redirects straight back with a code (or an error), and /token issuing short-lived
// access tokens with refresh tokens (authorization_code with PKCE S256, refresh_token with rotation).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuthTestServer {
  origin: string;
  clientId: string;
  clientSecret: string;
  /** Access tokens currently valid (the MCP test server accepts exactly these). */
  validAccessTokens: Set<string>;
  /** Every token request, without secrets: grant type and whether client auth was right. */
  tokenRequests: Array<{ grant_type: string; clientAuth: boolean }>;
  /** Issued refresh tokens (so tests can look for them in the database). */
  issuedRefreshTokens: string[];
  settings: { expiresIn: number; refreshFails: boolean; denyAuthorization: boolean; scope: string };
  close(): Promise<void>;
}

export async function startOAuthTestServer(options: { serveMetadata?: boolean } = {}): Promise<OAuthTestServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  const refreshTokens = new Set<string>();
  let n = 0;
  const s: OAuthTestServer = {
    origin: '',
    clientId: 'palkit-client',
    clientSecret: `cs-${randomBytes(12).toString('hex')}`,
    validAccessTokens: new Set(),
    tokenRequests: [],
    issuedRefreshTokens: [],
    settings: { expiresIn: 60, refreshFails: false, denyAuthorization: false, scope: 'tools:read' },
    close: async () => undefined,
  };
  const issue = (scope: string) => {
    n++;
    const access = `at-${n}-${randomBytes(8).toString('hex')}`;
    const refresh = `rt-${n}-${randomBytes(8).toString('hex')}`;
    s.validAccessTokens.add(access);
    refreshTokens.add(refresh);
    s.issuedRefreshTokens.push(refresh);
    return { access_token: access, token_type: 'Bearer', expires_in: s.settings.expiresIn, refresh_token: refresh, scope };
  };
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', s.origin);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/oauth-authorization-server' && options.serveMetadata !== false) {
      return send(200, {
        issuer: s.origin,
        authorization_endpoint: `${s.origin}/authorize`,
        token_endpoint: `${s.origin}/token`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirect = new URL(q.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', q.get('state') ?? '');
      if (s.settings.denyAuthorization) redirect.searchParams.set('error', 'access_denied');
      else if (
        q.get('client_id') !== s.clientId ||
        q.get('code_challenge_method') !== 'S256' ||
        !q.get('code_challenge') ||
        q.get('response_type') !== 'code'
      ) {
        redirect.searchParams.set('error', 'invalid_request');
      } else {
        const code = `code-${randomBytes(8).toString('hex')}`;
        codes.set(code, {
          challenge: q.get('code_challenge')!,
          redirectUri: q.get('redirect_uri')!,
          scope: q.get('scope') ?? s.settings.scope,
        });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const form = new URLSearchParams(text);
        const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
        const clientAuth = basic === `${s.clientId}:${s.clientSecret}`;
        const grant = form.get('grant_type') ?? '';
        s.tokenRequests.push({ grant_type: grant, clientAuth });
        if (!clientAuth) return send(401, { error: 'invalid_client' });
        if (grant === 'authorization_code') {
          const entry = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (!entry || entry.challenge !== challenge || entry.redirectUri !== form.get('redirect_uri'))
            return send(400, { error: 'invalid_grant' });
          return send(200, issue(entry.scope));
        }
        if (grant === 'refresh_token') {
          const refresh = form.get('refresh_token') ?? '';
          if (s.settings.refreshFails || !refreshTokens.has(refresh))
            return send(400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
          refreshTokens.delete(refresh); // rotation: each refresh token works once
          return send(200, issue(s.settings.scope));
        }
        return send(400, { error: 'unsupported_grant_type' });
      });
      return;
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  s.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  s.close = () =>
    new Promise<void>((r) => {
      http.closeAllConnections();
      http.close(() => r());
    });
  return s;
}
