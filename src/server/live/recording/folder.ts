// The recordings' folder, made private at start (mode 0700, ours, not a link): live PCM files and stored
// WAVs are the visitors' voices. An in-memory service's default folder sits in the shared temp folder,
// where another user could have planted a link; there the checked-folder logic of the voice bridge picks
// a fresh folder instead. A folder the operator named is kept, with an error logged when it is not private.
import { memoryRecordingDir, type Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import { privateFolder, servicePrivateFolder } from '../../platform/files/private-folder.js';

export function privateRecordingFolder(config: Pick<Config, 'dataDir' | 'recording'>, log: Logger): string {
  const dir = config.recording.dir;
  if (config.dataDir === 'memory' && dir === memoryRecordingDir()) return servicePrivateFolder('memory', 'recordings', log) ?? dir;
  if (!privateFolder(dir))
    log.error('the recording folder is not private to this user: other users may read or redirect recordings', { folder: dir });
  return dir;
}
