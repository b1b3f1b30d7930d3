// How long to wait before trying again after `attempt` failures: doubling from `baseMs`, capped at
// `maxMs`. Job retries and database reconnects share it. `jitter` spreads the wait over its upper
// half, so that instances which lost the same database at the same moment do not all return at once.
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  jitter?: boolean;
}

export function backoffMs(attempt: number, { baseMs, maxMs, jitter = false }: BackoffOptions, random: () => number = Math.random): number {
  const wait = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return jitter ? Math.round(wait / 2 + random() * (wait / 2)) : wait;
}
