// The embedded database's folder holds transcripts and conversation context in its files and its
// write-ahead log: readable by the service's user only. The folder is made 0700 (with a umask that keeps
// new folders so), and every file in it 0600 on start — PGlite's file system creates files 0666 whatever
// the umask, so the modes are set again after it opened. What cannot be fixed (a file another user owns)
// is said at start.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.js';

/** Before the database opens: new files and folders of this process without group or other access, and the folder 0700. */
export function privateDataFolder(dir: string): void {
  process.umask(process.umask() | 0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Sets the folder 0700, its folders 0700 and its files 0600; returns how many entries others can still read. */
export function fixDataFolderModes(dir: string, log: Logger | undefined): number {
  let open = 0;
  const visit = (path: string): void => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o077) !== 0) {
      try {
        chmodSync(path, (stat.mode & 0o700) | (wanted & 0o700));
      } catch {
        open++;
      }
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  if (open > 0)
    log?.error('the data folder is readable by other users: make it and its files owned by the service user, mode 0700/0600', {
      folder: dir,
      entries: open,
    });
  return open;
}
