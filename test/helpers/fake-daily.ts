// Loopback fakes for PALs in Daily rooms: Daily's REST API (rooms, meeting tokens, room deletion, as
// api.daily.co answers them), Daily's signed webhooks, and a PAL runner that verifies the handoff's
// Standard Webhooks signature with the `standardwebhooks` package.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export const DAILY_KEY = 'daily-test-key';
/** Daily's webhook `hmac` secret is base64. */
export const DAILY_WEBHOOK_SECRET = Buffer.from('daily-webhook-secret-for-tests-0123').toString('base64');
export const RUNNER_SECRET = 'whsec_' + Buffer.from('runner-secret-for-tests-0123456789').toString('base64');

export interface DailyCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

/** Daily's REST API on loopback; `fail.rooms/tokens/botTokens/deletes` make that many next calls of the kind answer an error. */
export async function startFakeDaily(apiKey = DAILY_KEY) {
  const calls: DailyCall[] = [];
  const rooms = new Map<string, Record<string, unknown>>();
  /** `botTokens`: owner tokens only (a PAL bot's), so the visitor's token before them is still made. */
  const fail = { rooms: 0, tokens: 0, botTokens: 0, deletes: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = new URL(req.url!, 'http://x').pathname;
      const body = raw ? JSON.parse(raw) : null;
      calls.push({ method: req.method!, path, authorization: req.headers.authorization, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return send(401, { error: 'authentication-error', info: 'Invalid or missing API key' });
      if (req.method === 'POST' && path === '/v1/rooms') {
        if (fail.rooms > 0 && fail.rooms--) return send(500, { error: 'server-error', info: 'try again' });
        const name = body?.name ?? randomUUID().slice(0, 20);
        if (rooms.has(name)) return send(400, { error: 'invalid-request-error', info: `a room named ${name} already exists` });
        const room = {
          id: randomUUID(),
          name,
          api_created: true,
          privacy: body?.privacy ?? 'public',
          url: `https://palkit-test.daily.co/${name}`,
          created_at: new Date().toISOString(),
          config: { ...body?.properties },
        };
        rooms.set(name, room);
        return send(200, room);
      }
      if (req.method === 'POST' && path === '/v1/meeting-tokens') {
        if (fail.tokens > 0 && fail.tokens--) return send(400, { error: 'invalid-request-error', info: 'bad token properties' });
        if (body?.properties?.is_owner === true && fail.botTokens > 0 && fail.botTokens--)
          return send(500, { error: 'server-error', info: 'try again' });
        if (!body?.properties?.room_name) return send(400, { error: 'invalid-request-error', info: 'room_name is required' });
        return send(200, { token: `eyJ.${Buffer.from(JSON.stringify(body.properties)).toString('base64url')}.sig` });
      }
      const match = /^\/v1\/rooms\/([^/]+)$/.exec(path);
      if (req.method === 'DELETE' && match) {
        if (fail.deletes > 0 && fail.deletes--) return send(500, { error: 'server-error', info: 'try again' });
        const name = decodeURIComponent(match[1]!);
        if (!rooms.delete(name)) return send(404, { error: 'not-found', info: `room ${name} was not found` });
        return send(200, { deleted: true, name });
      }
      send(404, { error: 'not-found', info: 'unknown endpoint' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    rooms,
    fail,
    /** The properties a fake token was made with. */
    tokenProperties: (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A Daily webhook event as Daily POSTs it: `{version, type, id, payload, event_ts}`, signed over `${timestamp}.${body}`. */
export function dailyEvent(
  type: string,
  payload: Record<string, unknown>,
  options: { secret?: string; timestamp?: number; id?: string } = {},
) {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const body = JSON.stringify({ version: '1.0.0', type, id: options.id ?? `ev_${randomUUID()}`, payload, event_ts: Number(timestamp) });
  const signature = createHmac('sha256', Buffer.from(options.secret ?? DAILY_WEBHOOK_SECRET, 'base64'))
    .update(`${timestamp}.${body}`)
    .digest('base64');
  return { body, headers: { 'content-type': 'application/json', 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature } };
}

export type RunnerMode = 'accept' | 'refuse' | 'hang';

export interface RunnerRequest {
  headers: IncomingHttpHeaders;
  body: any;
  verified: boolean;
}

/** A PAL runner: verifies each handoff with `standardwebhooks`, then answers 200, 500 or never. */
export async function startFakeRunner(secret = RUNNER_SECRET) {
  const requests: RunnerRequest[] = [];
  const state = { mode: 'accept' as RunnerMode };
  const verifier = new Webhook(secret);
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let verified = false;
      try {
        verifier.verify(raw, req.headers as Record<string, string>);
        verified = true;
      } catch {
        /* recorded as unverified */
      }
      requests.push({ headers: req.headers, body: JSON.parse(raw), verified });
      if (!verified) return res.writeHead(401).end('bad signature');
      if (state.mode === 'hang') return; // never answers
      if (state.mode === 'refuse') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"no capacity"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rooms`,
    requests,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
