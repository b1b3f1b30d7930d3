// Who may hold a connection to the HTTP server, so that one address cannot use up the process's file
// descriptors (19,940 idle WebSocket upgrades from one address made every new request fail for 20 s):
// - a total cap below the descriptor limit, so the process keeps descriptors for its database, files and
//   outbound calls, and accepting never fails with EMFILE (a connection past the cap is closed at once);
// - a cap per client address on open connections (not behind a trusted proxy, where every connection
//   comes from the proxy: the proxy must limit its clients then);
// - a cap per address on WebSocket upgrades that have not sent their first frame, refused at once with
//   429, and a total cap on them (a quarter of all connections) where the oldest waiting one makes room,
//   so idle upgrades from many addresses cannot keep a visitor's valid join out either.
// - a reserve: once the open connections come within RESERVE of the total cap, each new connection closes
//   the oldest one still waiting for its first request's headers, so slow-header floods from many
//   addresses (82 held all 15,743) leave room for /healthz and a visitor's valid join, whose headers come
//   at once;
// - an IPv6 address counts as its /64 (address-prefix.ts).
// The headers of a request (an upgrade's too) must arrive within headersTimeoutMs (server options).
// Every refusal is counted by reason (/metrics: palkit_connections_refused_total).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { addressPrefix } from '../net/address-prefix.js';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open connections in all; past it new ones are closed at once. */
  max: number;
  /** Open connections per client address (0: none); not applied behind a trusted proxy. */
  perAddress: number;
  /** Upgrades waiting for their first frame, per address (0: none) and in all. */
  pendingUpgradesPerAddress: number;
  maxPendingUpgrades: number;
}

/**
 * Why a connection was refused or cut: its address's connection cap, the total cap, its address's cap on
 * upgrades waiting to join, the oldest waiting upgrade closed to make room, or its request (headers within
 * the header timeout, the whole within the request timeout) not in time.
 */
export type RefusalReason = 'per_address' | 'total' | 'pending_upgrades' | 'pending_evicted' | 'request_timeout' | 'slow_headers_evicted';

export interface PendingUpgrade {
  /** The socket sent its first frame or closed: it no longer counts as waiting. */
  release(): void;
}

/** Descriptors kept for everything else the process opens (database, files, outbound fetches, workers). */
const RESERVED_DESCRIPTORS = 256;

/** The process's soft limit on open files (Linux: /proc/self/limits); a conservative guess elsewhere. */
export function descriptorLimit(): number {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line?.[1] && line[1] !== 'unlimited') return Number(line[1]);
    if (line?.[1] === 'unlimited') return 1_000_000;
  } catch {
    /* not Linux */
  }
  return 1024;
}

/** The total cap when none is configured: four fifths of the descriptors less a reserve, at least 64. */
export function defaultMaxConnections(descriptors = descriptorLimit()): number {
  return Math.max(64, Math.floor(descriptors * 0.8) - RESERVED_DESCRIPTORS);
}

/** Connections kept free for requests whose headers arrive at once: a twentieth of the cap, 4 to 256. */
export const reserveOf = (max: number) => Math.min(256, Math.max(4, Math.floor(max / 20)));

export class ConnectionGuard {
  private open = 0;
  /** Every connection still open, for destroyAll. */
  private readonly sockets = new Set<Socket>();
  /** Connections that have not sent a request's headers yet, oldest first. */
  private readonly awaitingHeaders = new Set<Socket>();
  private readonly perAddress = new Map<string, number>();
  /** Waiting upgrades in the order they came (a Map keeps insertion order): the first is the oldest. */
  private readonly waiting = new Map<object, { address: string; evict: () => void }>();
  private readonly waitingPerAddress = new Map<string, number>();
  /** Counts for /metrics and tests. */
  readonly refused = { connections: 0, upgrades: 0, evicted: 0, slowEvicted: 0 };

  constructor(
    readonly limits: ConnectionLimits,
    private readonly countPerAddress: boolean,
    private readonly onRefused: (reason: RefusalReason) => void = () => undefined,
  ) {}

  /** Closes every connection still open, upgraded ones too (Node's closeAllConnections ends only HTTP ones). */
  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** A new connection: false (and closed) when its address's cap is reached (the total is the server's maxConnections). */
  admitConnection(socket: Socket): boolean {
    const address = addressPrefix(socket.remoteAddress ?? 'unknown');
    const mine = this.perAddress.get(address) ?? 0;
    if (this.countPerAddress && this.limits.perAddress > 0 && mine >= this.limits.perAddress) {
      this.refused.connections++;
      this.onRefused('per_address');
      socket.destroy();
      return false;
    }
    this.open++;
    this.perAddress.set(address, mine + 1);
    // Within the reserve: the oldest connection still without its headers makes room.
    if (this.open > this.limits.max - reserveOf(this.limits.max)) {
      const oldest = this.awaitingHeaders.values().next().value;
      if (oldest) {
        this.awaitingHeaders.delete(oldest);
        this.refused.slowEvicted++;
        this.onRefused('slow_headers_evicted');
        oldest.destroy();
      }
    }
    this.awaitingHeaders.add(socket);
    this.sockets.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.awaitingHeaders.delete(socket);
      this.open--;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    return true;
  }

  /**
   * An upgrade from `address` that will wait for its first frame: null when the address has its share
   * waiting already (refuse it); otherwise its handle. At the total cap the oldest waiting upgrade is
   * evicted (`evict` is how to close one).
   */
  admitUpgrade(client: string, evict: () => void): PendingUpgrade | null {
    const address = addressPrefix(client);
    const mine = this.waitingPerAddress.get(address) ?? 0;
    if (this.limits.pendingUpgradesPerAddress > 0 && mine >= this.limits.pendingUpgradesPerAddress) {
      this.refused.upgrades++;
      this.onRefused('pending_upgrades');
      return null;
    }
    while (this.waiting.size >= this.limits.maxPendingUpgrades) {
      const [oldest, entry] = this.waiting.entries().next().value!;
      this.forget(oldest);
      this.refused.evicted++;
      this.onRefused('pending_evicted');
      entry.evict();
    }
    const key = {};
    this.waiting.set(key, { address, evict });
    this.waitingPerAddress.set(address, mine + 1);
    return { release: () => this.forget(key) };
  }

  /** The connection sent a request's headers (a request or an upgrade): it no longer makes room for others. */
  headersArrived(socket: Socket): void {
    this.awaitingHeaders.delete(socket);
  }

  get openConnections(): number {
    return this.open;
  }

  get waitingUpgrades(): number {
    return this.waiting.size;
  }

  private forget(key: object): void {
    const entry = this.waiting.get(key);
    if (!entry) return;
    this.waiting.delete(key);
    const left = (this.waitingPerAddress.get(entry.address) ?? 1) - 1;
    if (left > 0) this.waitingPerAddress.set(entry.address, left);
    else this.waitingPerAddress.delete(entry.address);
  }
}

const guards = new WeakMap<Server, ConnectionGuard>();

/** Guards the server's connections (service.ts, once it listens). */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  options: { trustProxy: boolean; onRefused?: (reason: RefusalReason) => void },
): ConnectionGuard {
  const onRefused = options.onRefused ?? (() => undefined);
  const guard = new ConnectionGuard(limits, !options.trustProxy, onRefused);
  // Node closes a connection past this before it is read (net.Server's own check, at accept), and says so.
  server.maxConnections = limits.max;
  server.on('drop', () => onRefused('total'));
  // A request not in time (the header timeout, or the whole request's): counted, then answered as Node
  // does without a listener (408 when nothing was sent yet, 400 for a malformed request, 431 for headers
  // too large), and the socket destroyed.
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') onRefused('request_timeout');
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      const status =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? '431 Request Header Fields Too Large'
            : '400 Bad Request';
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    }
    socket.destroy(error);
  });
  // Before any other listener: a connection past the caps is closed before it is read.
  server.prependListener('connection', (socket: Socket) => void guard.admitConnection(socket));
  server.prependListener('request', (request: IncomingMessage) => guard.headersArrived(request.socket));
  server.prependListener('upgrade', (request: IncomingMessage) => guard.headersArrived(request.socket));
  guards.set(server, guard);
  return guard;
}

/** The guard of this server, when it has one (the room server asks it about upgrades). */
export function connectionGuardOf(server: Server): ConnectionGuard | undefined {
  return guards.get(server);
}
