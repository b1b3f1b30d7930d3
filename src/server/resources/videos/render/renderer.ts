// The renderer a service instance uses (the contract it fulfils is in contract.ts, re-exported here).
import type { Config } from '../../../app/config.js';
import { onePer } from '../../../app/one-per.js';
import { locateFfmpeg } from '../../../platform/media/ffmpeg.js';
import type { Renderer } from './contract.js';
import { createLocalRenderer } from './local-renderer.js';

export * from './contract.js';

/** The renderer for this service instance (the local one: espeak-ng from PALKIT_RENDER_PATH or PATH, the bundled ffmpeg or PALKIT_FFMPEG). */
export const rendererFor = onePer((config: Config): Renderer => createLocalRenderer({ searchPath: config.renderPath ?? process.env.PATH ?? '', ffmpeg: locateFfmpeg(config.ffmpeg) }));
