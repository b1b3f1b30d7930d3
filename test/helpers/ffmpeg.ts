// The ffmpeg tests convert audio with: the service's own bundled build, so the tests need no system ffmpeg either.
import { locateFfmpeg } from '../../src/server/platform/media/ffmpeg.js';

export function bundledFfmpeg(): string {
  const found = locateFfmpeg(undefined);
  if ('missing' in found) throw new Error(`ffmpeg: ${found.missing}`);
  return found.path;
}
