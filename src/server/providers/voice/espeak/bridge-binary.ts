// Where the compiled eSpeak bridge lives and why it can be trusted to run. It is built into a private
// folder (mode 0700, owned by the service's user) under the service's data, or a private temp folder when
// the data is in memory — never a predictable path in the shared temp folder, where another user could
// plant a file that would then run as the service. Before every start the binary must still be owned by
// this user, writable by no one else, and hash to what the build recorded; otherwise it is built again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../../platform/log.js';
import { packageRoot } from '../../../platform/package-root.js';
import { servicePrivateFolder } from '../../../platform/files/private-folder.js';

// In a checkout it sits beside this file; the build copies it next to the compiled service (@palkit/server's dist/).
const SOURCES = ['providers/voice/espeak/palkit-espeak.c', 'dist/palkit-espeak.c'].map((p) => join(packageRoot, p));

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** The bridge's folder: `voice` under PALKIT_DATA, or a private folder in the temp folder for an in-memory service. */
export function bridgeFolder(dataDir: string, log: Logger): string | null {
  return servicePrivateFolder(dataDir, 'voice', log);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether the binary at `path` is ours, writable by no one else, and hashes to its recorded digest. */
export function trustedBinary(path: string): boolean {
  try {
    const stat = lstatSync(path);
    const record = lstatSync(`${path}.sha256`);
    const me = uid();
    if (!stat.isFile() || !record.isFile()) return false;
    if (me !== null && (stat.uid !== me || record.uid !== me)) return false;
    if ((stat.mode & 0o022) !== 0 || (record.mode & 0o022) !== 0) return false;
    return sha256(readFileSync(path)) === readFileSync(`${path}.sha256`, 'utf8').trim();
  } catch {
    return false;
  }
}

export class BridgeBinary {
  private path: string | null | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {}

  /** A bridge binary that passed the checks just now (built again if it did not), or null when this machine cannot build one. */
  get(): string | null {
    if (this.path === null) return null;
    if (this.path && trustedBinary(this.path)) return this.path;
    if (this.path) this.log.error('the voice bridge binary changed or is not owned by this user; it is built again', { binary: this.path });
    this.path = this.build();
    return this.path;
  }

  private build(): string | null {
    const file = SOURCES.find((p) => existsSync(p));
    if (!file) {
      this.log.info('the local voice uses the espeak-ng command line (the bridge source is not installed)');
      return null;
    }
    const folder = bridgeFolder(this.dataDir, this.log);
    if (!folder) {
      this.log.error('the local voice uses the espeak-ng command line (no private folder for its bridge)');
      return null;
    }
    const binary = join(folder, `palkit-espeak-${sha256(readFileSync(file)).slice(0, 12)}`);
    if (trustedBinary(binary)) return binary;
    const partial = `${binary}.${process.pid}`;
    const built = spawnSync('cc', ['-O2', '-o', partial, file, '-lespeak-ng'], { encoding: 'utf8' });
    if (built.status !== 0) {
      rmSync(partial, { force: true });
      this.log.info(
        'the local voice uses the espeak-ng command line (its bridge could not be built: install a C compiler and libespeak-ng-dev for exact word timing)',
        {
          error: (built.stderr || built.error?.message || '').trim().split('\n')[0],
        },
      );
      return null;
    }
    chmodSync(partial, 0o700);
    // The digest first: a binary without its matching record is never trusted, so a crash in between only costs a rebuild.
    writeFileSync(`${partial}.sha256`, `${sha256(readFileSync(partial))}\n`, { mode: 0o600 });
    renameSync(`${partial}.sha256`, `${binary}.sha256`);
    renameSync(partial, binary);
    return trustedBinary(binary) ? binary : null;
  }
}
