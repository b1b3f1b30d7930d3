// The renderer a service instance uses (the contract it fulfils is in contract.ts, re-exported here).
import type { Config } from '../../../app/config.js';
import { onePer } from '../../../app/one-per.js';
import type { Renderer } from './contract.js';
import { createLocalRenderer } from './local-renderer.js';
import { localSpeechWav } from './local-speech.js';

export * from './contract.js';

/** The renderer for this service instance (the local one, looking for its tools on PALKIT_RENDER_PATH or PATH). */
export const rendererFor = onePer((config: Config): Renderer => createLocalRenderer({
  searchPath: config.renderPath ?? process.env.PATH ?? '',
  ...(config.localVoice === 'wasm' ? { speak: (text: string, voice: string, signal?: AbortSignal) => localSpeechWav(config, text, voice, signal) } : {}),
}));
