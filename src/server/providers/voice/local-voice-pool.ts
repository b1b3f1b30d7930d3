// The local voice's one pool of speakers per service configuration: the rooms' voice (synthesis.ts) and
// speech items (resources/videos/render/local-speech.ts) share it, so a speech item's chunks wait in
// background lanes behind the rooms' sentences instead of competing with them for the cores.
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import { EspeakSynthesizer } from './espeak.js';

const pools = new WeakMap<object, EspeakSynthesizer>();

export function localVoicePool(config: Pick<Config, 'dataDir' | 'localVoice'>, log: Logger): EspeakSynthesizer {
  let pool = pools.get(config);
  if (!pool || pool.isClosed)
    pools.set(config, (pool = new EspeakSynthesizer(log, { dataDir: config.dataDir, engine: config.localVoice })));
  return pool;
}
