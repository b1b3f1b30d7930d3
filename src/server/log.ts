// A tiny structured logger. Never pass secrets to it: callers log ids and codes, not bodies.
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

const levels = { silent: 0, error: 1, info: 2, debug: 3 } as const;

/** Credentials in URLs (`scheme://user:password@host`) never reach the log. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'?#]+@/gi, '$1***@');
}

export function createLogger(level: keyof typeof levels): Logger {
  const at = levels[level];
  const write = (lvl: string, msg: string, fields?: Record<string, unknown>) =>
    process.stderr.write(redactUrlCredentials(`${new Date().toISOString()} ${lvl} ${msg}${fields ? ' ' + JSON.stringify(fields) : ''}`) + '\n');
  return {
    error: (m, f) => at >= 1 && write('error', m, f),
    info: (m, f) => at >= 2 && write('info', m, f),
    debug: (m, f) => at >= 3 && write('debug', m, f),
  };
}
