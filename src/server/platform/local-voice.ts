// Which local voice runs when PALKIT_LOCAL_VOICE is `auto` (the default). The native bridge where this machine
// can build and run it (Linux with a C compiler, libespeak-ng's headers and the espeak-ng program, as on
// Debian after `apt-get install gcc libespeak-ng-dev espeak-ng`): it is ready in about a second and starts a
// sentence in ~5 ms. Everywhere else eSpeak NG from npm, which needs nothing outside npm but whose threads
// take several sentences to reach speed (a new thread is slow at first; see docs/production.md).
import { existsSync } from 'node:fs';
import { findTool } from './media/find-tool.js';

export type LocalVoice = 'wasm' | 'native';

export function chooseLocalVoice(setting: LocalVoice | 'auto', path: string, renderPath: string = path): LocalVoice {
  if (setting !== 'auto') return setting;
  const nativeBuilds =
    process.platform === 'linux' && existsSync('/usr/include/espeak-ng/speak_lib.h') && findTool('cc', path) !== undefined;
  return nativeBuilds && findTool('espeak-ng', renderPath) !== undefined ? 'native' : 'wasm';
}
