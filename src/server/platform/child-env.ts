// The only environment a child process of the service gets (the face trainer, the video renderer, palkit's
// runner): where to find programs, temporary files and the locale, never the service's own settings and secrets.
const BASE = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ'];

/** Those of the base variables, and of `extra`, that are set in this process. */
export function childEnv(extra: readonly string[] = []): Record<string, string> {
  return Object.fromEntries([...BASE, ...extra].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
}
