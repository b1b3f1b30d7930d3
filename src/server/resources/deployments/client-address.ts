// Who is calling a public endpoint: the socket's address, or X-Forwarded-For's last hop when the
// service runs behind a trusted proxy (PALKIT_TRUST_PROXY=1). Stored only as a keyed hash.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';
import { forwardedClient } from '../../platform/net/forwarded-for.js';

export function clientAddress(c: Context<AppEnv>): string | null {
  const forwarded = c.get('deps').config.trustProxy ? forwardedClient(c.req.header('x-forwarded-for')) : null;
  if (forwarded) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // not served by the Node adapter (app.fetch in benchmarks)
  }
}

/**
 * A stable, non-reversible key for per-visitor limits and attempt counters: the address, or for IPv6 its /64
 * (one household or office network; an attacker has a whole /64 to rotate through).
 */
export function clientKey(c: Context<AppEnv>, address: string | null): string {
  return c.get('deps').secrets.sign('visitor-address', address === null ? 'unknown' : addressPrefix(address));
}

/** An IPv4 address as it is (also when IPv4-mapped), an IPv6 address as its first 64 bits. */
export function addressPrefix(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head, tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}
