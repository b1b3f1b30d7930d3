// Behind a trusted proxy (PALKIT_TRUST_PROXY=1) the client is X-Forwarded-For's last hop: the proxy
// appends the address it saw, and entries before it are whatever the client claimed.

/** The last hop of an X-Forwarded-For header, or null when it names none. */
export function forwardedClient(header: string | readonly string[] | undefined): string | null {
  const hops = String(header ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return hops[hops.length - 1] ?? null;
}
