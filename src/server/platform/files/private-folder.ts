// Folders only the service's user can enter, for what it keeps on disk (the voice bridge, recordings, the
// embedded database). Never a predictable path in the shared temp folder that another user could have
// prepared (a planted link would redirect what is written there): such a folder is checked to be a real
// folder, ours, with no group or other access, or a fresh one is made that nobody can have prepared.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log.js';

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** A folder only this user can enter: made with mode 0700, or checked to be one (not a link, ours, no group or other access). */
export function privateFolder(path: string): boolean {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    const stat = lstatSync(path);
    if (!stat.isDirectory() || (uid() !== null && stat.uid !== uid())) return false;
    if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
    return (lstatSync(path).mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The service's private folder `name`: under PALKIT_DATA, or for an in-memory service under
 * `palkit-<uid>` in the temp folder (whose parent must be private too, or its owner could swap `name`
 * for another folder). Null when not even a fresh temp folder can be made.
 */
export function servicePrivateFolder(dataDir: string, name: string, log: Logger): string | null {
  const shared = dataDir === 'memory' ? join(tmpdir(), `palkit-${uid() ?? 'user'}`) : null;
  const preferred = join(shared ?? dataDir, name);
  if ((shared === null || privateFolder(shared)) && privateFolder(preferred)) return preferred;
  // Someone else owns the expected folder (or it is a link): a fresh one that nobody can have prepared.
  log.error(`the ${name} folder is not private to this user; a new one is used`, { folder: preferred });
  try {
    return mkdtempSync(join(tmpdir(), `palkit-${name}-`));
  } catch {
    return null;
  }
}
