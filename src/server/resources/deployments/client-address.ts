// Who is calling a public endpoint: the socket's address, or X-Forwarded-For's last hop when the
// service runs behind a trusted proxy (PALKIT_TRUST_PROXY=1). Stored only as a keyed hash.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';
import { forwardedClient } from '../../platform/net/forwarded-for.js';
import { addressPrefix } from '../../platform/net/address-prefix.js';

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
