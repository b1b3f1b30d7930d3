// The service's structured logger: one JSON object per line on stderr, `{"time","level","msg",...fields}`.
// Callers log ids and codes, not bodies; as a second line of defence, fields named like secrets are
// redacted and credentials inside URLs (`user:pass@`) or bearer values are masked in every string.
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

const levels = { silent: 0, error: 1, info: 2, debug: 3 } as const;

const SECRET_FIELD = /pass(word|wd)?|secret|token|api[-_]?key|^key$|[-_]key$|authori[sz]ation|cookie|credential|signature/i;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** Query parameters that carry credentials (signed links, API keys in URLs). */
const SECRET_QUERY =
  /([?&](?:[a-z0-9_.-]*(?:token|secret|password|passwd|signature|credential)[a-z0-9_.-]*|api[-_]?key|apikey|key|sig|auth|code|x-amz-security-token)=)[^&#\s"'<>]+/gi;

/**
 * Masks credentials inside a free-form string: error messages quote URLs (`user:pass@`, `?token=`) and
 * headers. Used for log lines and for every error text the API returns (error_details, last_error…).
 */
export function scrubText(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@').replace(BEARER, '$1 [redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

/** A JSON Web Token: three base64url parts, the first two JSON objects (`eyJ…`). */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/;
/** A connection string's secret part (`;Password=…`, `AccountKey=…`, `SharedAccessSignature=…`). */
const CONNECTION_SECRET = /(?:^|[;\s])(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature|sig)=[^;\s]+/i;

/** A whole value that is an Authorization header's (free text such as "basic answers" is not). */
const AUTHORIZATION_VALUE = /^\s*(?:bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}\s*$/i;

/**
 * A URL whose path is its secret (an incoming webhook: whoever has it posts as you), or a token of a known
 * issuer's shape (Slack, GitHub, Stripe, AWS, Google).
 */
const SECRET_PATH_URL =
  /\bhttps?:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|(?:[a-z0-9-]+\.)?discord(?:app)?\.com\/api\/webhooks\/|[a-z0-9-]+\.webhook\.office\.com\/|chat\.googleapis\.com\/v1\/spaces\/[^\s/]+\/messages\?)/i;
const ISSUER_TOKEN =
  /\b(?:xox[abposre]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})\b/;

/**
 * Whether a string has a credential's shape (layer values are sealed by it): a URL with `user:pass@` or
 * a credential in its query (as scrubText masks them), an incoming webhook's URL, an Authorization value,
 * a JWT, a connection string's password, a token of a known issuer's shape.
 */
export function looksLikeCredential(text: string): boolean {
  return (
    new RegExp(URL_CREDENTIALS.source, 'i').test(text) ||
    new RegExp(SECRET_QUERY.source, 'i').test(text) ||
    AUTHORIZATION_VALUE.test(text) ||
    JWT.test(text) ||
    CONNECTION_SECRET.test(text) ||
    SECRET_PATH_URL.test(text) ||
    ISSUER_TOKEN.test(text)
  );
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return scrubText(value.message);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '[nested]';
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : scrub(v, depth + 1);
  return out;
}

/** One log line (without the newline): base keys first, fields after; fields cannot replace base keys. */
// eslint-disable-next-line no-restricted-syntax -- a log line carries when it was written: wall-clock time, whatever clock the service runs on
export function formatLine(level: string, msg: string, fields?: Record<string, unknown>, now = new Date()): string {
  const entry: Record<string, unknown> = { time: now.toISOString(), level, msg: scrubText(msg) };
  if (fields) for (const [k, v] of Object.entries(scrub(fields) as Record<string, unknown>)) if (!(k in entry)) entry[k] = v;
  return JSON.stringify(entry);
}

export function createLogger(level: keyof typeof levels, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const at = levels[level];
  const emit = (lvl: string, msg: string, fields?: Record<string, unknown>) => write(formatLine(lvl, msg, fields) + '\n');
  return {
    error: (m, f) => at >= 1 && emit('error', m, f),
    info: (m, f) => at >= 2 && emit('info', m, f),
    debug: (m, f) => at >= 3 && emit('debug', m, f),
  };
}

/** The same logger with `base` fields on every line (the instance's id), a line's own fields after them. */
export function withFields(log: Logger, base: Record<string, unknown>): Logger {
  return {
    error: (m, f) => log.error(m, { ...base, ...f }),
    info: (m, f) => log.info(m, { ...base, ...f }),
    debug: (m, f) => log.debug(m, { ...base, ...f }),
  };
}
