// Who is calling a public endpoint: the socket's address, or X-Forwarded-For's last hop when the
// service runs behind a trusted proxy (PALKIT_TRUST_PROXY=1). Stored only as a keyed hash.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../../app/http/app-env.js';

export function clientAddress(c: Context<AppEnv>): string | null {
  if (c.get('deps').config.trustProxy) {
    // The proxy appends the address it saw; entries before it are whatever the client claimed.
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (hops.length > 0) return hops[hops.length - 1]!;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // not served by the Node adapter (app.fetch in benchmarks)
  }
}

/** A stable, non-reversible key for per-visitor limits and attempt counters. */
export function clientKey(c: Context<AppEnv>, address: string | null): string {
  return c.get('deps').secrets.sign('visitor-address', address ?? 'unknown');
}
