// Whether an error means the database cannot be reached now (as opposed to a query it refused): the
// request that met it is answered 503 with Retry-After (app/http/app.ts), as /readyz answers 503, and
// not 500, since trying again later is the right thing for the caller to do.

/** Network errors of the driver's connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** PostgreSQL's SQLSTATEs of a server going away or refusing connections: class 08, shutdowns, too many connections. */
const SERVER_CODES = /^(08...|57P0[1-3]|53300)$/;
/** The pg pool's and the embedded database's words for the same (they carry no code). */
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|not queryable|PGlite (instance )?is (already )?closed|driver has already been destroyed/i;

export function databaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
  if (MESSAGES.test(error.message)) return true;
  // Connecting to a name with several addresses fails with all of them.
  if (error instanceof AggregateError) return error.errors.some((e) => databaseUnavailable(e, depth + 1));
  return databaseUnavailable(error.cause, depth + 1);
}
