// How the service gives the PAL a voice: a synthesiser turns a short text (a sentence or two) into a
// stream of samples with word and mouth-shape timing. eSpeak NG on this machine by default (WebAssembly,
// or the native bridge with PALKIT_LOCAL_VOICE=native); an OpenAI-compatible speech endpoint when one is
// configured, falling back to eSpeak when it fails.
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { phonemiserOf } from './phoneme-timing.js';
import { localVoicePool } from './local-voice-pool.js';
import { OpenAiSpeech } from './openai-speech.js';
import type { Synthesizer } from './synthesizer.js';

export {
  DEFAULT_WORDS_PER_MINUTE,
  SynthesisError,
  type SynthesisEvent,
  type SynthesisStream,
  type Synthesizer,
  type VoiceChoice,
} from './synthesizer.js';

/** The configured voice: the OpenAI-compatible endpoint with the local voice behind it, or the local voice. */
export function createSynthesizer(
  deps: Pick<ServiceDeps, 'config' | 'fetch' | 'log'> & Partial<Pick<ServiceDeps, 'metrics'>>,
): Synthesizer {
  const local = localVoicePool(deps.config, deps.log);
  if (deps.metrics) deps.metrics.voiceQueue.backlog = () => local.backlog;
  if (!deps.config.tts.baseUrl) return local;
  // The local voice phonemises the provider's sentences too, in the same room's lane, so its mouth follows the provider's audio.
  const withFallback = (fallback: Synthesizer, remote = new OpenAiSpeech(deps, phonemiserOf(fallback))): Synthesizer => ({
    name: `${remote.name}+${local.name}`,
    async synthesize(text, voice, signal) {
      try {
        return await remote.synthesize(text, voice, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        deps.log.error('speech provider failed; the local voice speaks instead', {
          error: error instanceof Error ? error.message : String(error),
        });
        return fallback.synthesize(text, voice, signal);
      }
    },
  });
  return { ...withFallback(local), lane: (key) => withFallback(local.lane(key)), close: () => local.close() };
}

/** The service's one synthesiser, shared by its rooms (the local voice keeps its speakers). */
export const synthesizerFor = onePer((deps: ServiceDeps): Synthesizer => createSynthesizer(deps));
