// Connections to the service (platform/http/connection-guard.ts, live/hub/socket-server.ts): caps per client
// address on open connections and on WebSocket upgrades waiting for their join, other upgrades answered
// and closed, the header timeout configured, and a socket that never joins ended without waiting for a
// close handshake. Clients here are raw TCP sockets, so nothing on their side answers for them.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it, mock } from 'node:test';
import { ConnectionGuard, defaultMaxConnections, descriptorLimit } from '../../../../src/server/platform/http/connection-guard.js';
import { JOIN_TIMEOUT_MS } from '../../../../src/server/live/hub/socket-server.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

const UPGRADE = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;

interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the received bytes match. */
  until(pattern: RegExp): Promise<string>;
  closed: Promise<void>;
}

async function raw(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let text = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    for (const w of waiters.splice(0)) w();
  });
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
  return {
    socket,
    received: () => text,
    closed,
    async until(pattern) {
      while (!pattern.test(text)) {
        if (socket.destroyed) throw new Error(`closed before ${pattern}: ${JSON.stringify(text)}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), closed]);
      }
      return text;
    },
  };
}

const isOpen = (client: RawClient) => !client.socket.destroyed && client.socket.readyState === 'open';

describe('connections', () => {
  let t: TestService;
  let port: number;
  before(async () => {
    t = await startListeningService({
      PALKIT_MAX_CONNECTIONS_PER_ADDRESS: '6',
      PALKIT_MAX_PENDING_UPGRADES_PER_ADDRESS: '3',
      PALKIT_HEADERS_TIMEOUT_MS: '5000',
    });
    port = Number(new URL(t.url).port);
  });
  after(() => t.close());

  it('refuses an address its fourth upgrade waiting to join with 429 at once, not another address', { timeout: 8_000 }, async () => {
    const waiting: RawClient[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await raw(port);
      c.socket.write(UPGRADE('/rooms/cwaiting'));
      await c.until(/^HTTP\/1\.1 101/);
      waiting.push(c);
    }
    const refused = await raw(port);
    refused.socket.write(UPGRADE('/rooms/cwaiting'));
    const answer = await refused.until(/\r\n\r\n\{.*\}$/s);
    assert.match(answer, /^HTTP\/1\.1 429 /);
    assert.match(answer, /Retry-After: 10/i);
    assert.match(answer, /"error":"too_many_upgrades/);
    await refused.closed;

    // Another address still gets in.
    const other = await raw(port, '127.0.0.2');
    other.socket.write(UPGRADE('/rooms/cwaiting'));
    await other.until(/^HTTP\/1\.1 101/);

    // One that sent its first frame (here a bad one) no longer waits: the address has room again.
    waiting[0]!.socket.write(Buffer.from([0x81, 0x80, 1, 2, 3, 4])); // an empty masked text frame
    await waiting[0]!.until(/join_required/);
    const next = await raw(port);
    next.socket.write(UPGRADE('/rooms/cwaiting'));
    await next.until(/^HTTP\/1\.1 101/);
    for (const c of [...waiting, other, next]) c.socket.destroy();
  });

  it('closes an address its connections past the cap at once, and serves it again once one closes', { timeout: 8_000 }, async () => {
    const idle: RawClient[] = [];
    for (let i = 0; i < 6; i++) idle.push(await raw(port));
    const extra = await raw(port);
    await extra.closed; // closed by the service, without a byte
    assert.equal(extra.received(), '');
    assert.ok(idle.every(isOpen), 'the first six stay open');
    // Another address is not held back.
    const other = await raw(port, '127.0.0.3');
    other.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.match(await other.until(/\{"ok":true[,}]/), /^HTTP\/1\.1 200/);
    idle.pop()!.socket.destroy();
    await new Promise((r) => setImmediate(r));
    // Closing is seen by the service when it reads the socket: ask until it is.
    for (;;) {
      const again = await raw(port);
      again.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      const answered = await Promise.race([again.until(/\{"ok":true[,}]/).then(() => true), again.closed.then(() => false)]);
      if (answered) break;
    }
    for (const c of idle) c.socket.destroy();
  });

  it('answers and closes an upgrade to a path that is not a room', { timeout: 8_000 }, async () => {
    const c = await raw(port, '127.0.0.4');
    c.socket.write(UPGRADE('/v2/pals'));
    assert.match(await c.until(/\r\n\r\n\{.*\}$/s), /^HTTP\/1\.1 404 /);
    await c.closed;
  });

  it('gives a request this long to send its headers, and caps connections below the descriptor limit', { timeout: 8_000 }, () => {
    assert.equal(t.server.headersTimeout, 5000);
    assert.ok(t.server.requestTimeout >= 5000);
    assert.ok(
      t.server.maxConnections > 0 && t.server.maxConnections < descriptorLimit(),
      `total cap ${t.server.maxConnections} below ${descriptorLimit()} descriptors`,
    );
    assert.equal(defaultMaxConnections(20_000), 15_744);
    assert.equal(defaultMaxConnections(256), 64);
  });

  it('ends a socket that never joins at the join timeout, without waiting for a close handshake', { timeout: 8_000 }, async () => {
    const c = await raw(port, '127.0.0.5');
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      c.socket.write(UPGRADE('/rooms/cnever'));
      await c.until(/^HTTP\/1\.1 101/);
      mock.timers.tick(JOIN_TIMEOUT_MS);
      await c.until(/join_timeout/);
      // The client never answers the close frame; before, the service waited 30 s for it.
      await c.closed;
    } finally {
      mock.timers.reset();
      c.socket.destroy();
    }
  });

  it('makes room among all waiting upgrades by closing the oldest, so idle ones from many addresses cannot keep a join out', () => {
    const guard = new ConnectionGuard({ max: 100, perAddress: 0, pendingUpgradesPerAddress: 2, maxPendingUpgrades: 3 }, true);
    const evicted: string[] = [];
    const admit = (name: string, address: string) => guard.admitUpgrade(address, () => evicted.push(name));
    const a1 = admit('a1', '10.0.0.1');
    admit('b1', '10.0.0.2');
    admit('c1', '10.0.0.3');
    assert.deepEqual(evicted, []);
    assert.ok(admit('d1', '10.0.0.4'), 'a fourth address gets in');
    assert.deepEqual(evicted, ['a1'], 'the oldest waiting one made room');
    a1!.release(); // already gone: nothing changes
    assert.equal(guard.waitingUpgrades, 3);
    admit('d2', '10.0.0.4');
    assert.equal(admit('d3', '10.0.0.4'), null, 'an address past its share is refused');
    assert.deepEqual(evicted, ['a1', 'b1']);
    assert.deepEqual(guard.refused, { connections: 0, upgrades: 1, evicted: 2, slowEvicted: 0 });
  });

  it('counts an IPv6 address as its /64 for the caps per address', () => {
    const guard = new ConnectionGuard({ max: 100, perAddress: 0, pendingUpgradesPerAddress: 2, maxPendingUpgrades: 50 }, true);
    const admit = (address: string) => guard.admitUpgrade(address, () => undefined);
    assert.ok(admit('2001:db8:5:6::1'));
    assert.ok(admit('2001:db8:5:6:ffff::2'));
    assert.equal(admit('2001:0db8:0005:0006:1:2:3:4'), null, 'a third from the same /64');
    assert.ok(admit('2001:db8:5:7::1'), 'another /64');
    assert.ok(admit('::ffff:10.0.0.9'), 'IPv4-mapped: its IPv4 address');
  });
});

describe('the front door in /metrics', () => {
  let t: TestService;
  let port: number;
  before(async () => {
    // A header timeout of a second (the least it can be), a total cap of 16 connections.
    t = await startListeningService({
      PALKIT_MAX_CONNECTIONS_PER_ADDRESS: '4',
      PALKIT_MAX_PENDING_UPGRADES_PER_ADDRESS: '1',
      PALKIT_HEADERS_TIMEOUT_MS: '1000',
      PALKIT_MAX_CONNECTIONS: '16',
    });
    port = Number(new URL(t.url).port);
  });
  after(() => t.close());

  const refusals = async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const counts: Record<string, number> = {};
    for (const [, reason, n] of text.matchAll(/^palkit_connections_refused_total\{reason="([a-z_]+)"\} (\d+)/gm))
      counts[reason!] = Number(n);
    return counts;
  };

  it(
    'counts each refusal by its reason: per address, total, waiting upgrades, request timeout, slow headers evicted',
    { timeout: 20_000 },
    async () => {
      // An address past its 4 connections.
      const mine: RawClient[] = [];
      for (let i = 0; i < 4; i++) mine.push(await raw(port, '127.0.1.1'));
      const extra = await raw(port, '127.0.1.1');
      await extra.closed;
      // An address past its one upgrade waiting to join (answered 429).
      const waiting = await raw(port, '127.0.1.2');
      waiting.socket.write(UPGRADE('/rooms/cmetrics'));
      await waiting.until(/^HTTP\/1\.1 101/);
      const second = await raw(port, '127.0.1.2');
      second.socket.write(UPGRADE('/rooms/cmetrics'));
      await second.until(/^HTTP\/1\.1 429/);
      // A request whose headers never end: answered 408 and closed at the header timeout.
      const slow = await raw(port, '127.0.1.3');
      slow.socket.write('GET /healthz HTTP/1.1\r\nHost: local');
      assert.match(await slow.until(/^HTTP\/1\.1 408/), /408 Request Timeout/);
      await slow.closed;
      // Within the reserve (4 of the 16), a new connection closes the oldest one still without its headers.
      const bare: RawClient[] = [];
      for (let i = 1; i <= 14; i++) bare.push(await raw(port, `127.0.3.${i}`));
      await Promise.race(bare.map((c) => c.closed));
      for (const c of bare) c.socket.destroy();
      // Past the 16 connections in all, each having sent a request (kept alive): more until one is closed without a byte.
      const many: RawClient[] = [];
      for (let i = 1; i <= 20; i++) {
        const c = await raw(port, `127.0.2.${i}`);
        many.push(c);
        const closedAtOnce = await Promise.race([
          c.closed.then(() => true),
          new Promise<boolean>((r) => setImmediate(() => setImmediate(() => r(false)))),
        ]);
        if (closedAtOnce || c.socket.destroyed) break;
        c.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await c.until(/^HTTP\/1\.1 200/);
      }
      for (const c of [...mine, waiting, second, ...many]) c.socket.destroy();
      // /metrics is a connection too: ask until it gets in once the held ones are gone.
      let counts: Record<string, number> | undefined;
      for (let i = 0; i < 1000 && !counts; i++) counts = await refusals().catch(() => undefined);
      assert.ok(counts, '/metrics answered');
      assert.equal(counts.per_address, 1);
      assert.equal(counts.pending_upgrades, 1);
      // The slow one, and any held idle connection that also outlived the timeout.
      assert.ok(counts.request_timeout! >= 1, `request timeouts counted (${counts.request_timeout})`);
      assert.ok(counts.total! >= 1, `the total cap's refusals counted (${counts.total})`);
      assert.ok(
        counts.slow_headers_evicted! >= 1,
        `connections without headers closed to keep the reserve (${counts.slow_headers_evicted})`,
      );
    },
  );

  it('keeps a reserve during a slow-header flood from many addresses: /healthz answers each time', { timeout: 20_000 }, async () => {
    const flood: RawClient[] = [];
    let healthy = 0;
    for (let round = 0; round < 5; round++) {
      // 16 more connections from 16 addresses, each sending a byte of its headers and no more.
      for (let i = 1; i <= 16; i++) {
        const c = await raw(port, `127.0.${10 + round}.${i}`);
        c.socket.write('G');
        flood.push(c);
      }
      const r = await fetch(`${t.url}/healthz`, { headers: { connection: 'close' } });
      if (r.status === 200) healthy++;
      await r.arrayBuffer();
    }
    for (const c of flood) c.socket.destroy();
    assert.equal(healthy, 5, '/healthz answered during the flood');
  });
});
