// The renderer a service instance uses (the contract it fulfils is in contract.ts, re-exported here).
import type { Config } from '../../../platform/config.js';
import { onePer } from '../../../platform/one-per.js';
import { locateFfmpeg } from '../../../platform/media/ffmpeg.js';
import type { Renderer } from './contract.js';
import { createLocalRenderer } from './local-renderer.js';
import { localSpeechWav } from './local-speech.js';

export * from './contract.js';

/** The renderer for this service instance (the local one: the local voice, or espeak-ng from PALKIT_RENDER_PATH or PATH with the native voice; the bundled ffmpeg or PALKIT_FFMPEG). */
export const rendererFor = onePer((config: Config): Renderer =>
  createLocalRenderer({
    searchPath: config.renderPath ?? process.env.PATH ?? '',
    ffmpeg: locateFfmpeg(config.ffmpeg),
    ...(config.localVoice === 'wasm'
      ? { speak: (text: string, voice: string, signal?: AbortSignal) => localSpeechWav(config, text, voice, signal) }
      : {}),
  }),
);
