// An OpenAI-compatible speech endpoint (PALKIT_TTS_*, through providers/openai): POST …/audio/speech with
// `{ model, input, voice, response_format: "pcm" }`, answered with raw 16-bit mono PCM at 24 kHz, sent in
// chunks. The provider gives no timing: given a phonemiser (the local voice), its phonemes are fitted onto
// the provider's audio once the sentence has arrived (align-visemes.ts; a sentence arrives much
// faster than it is spoken); without one, or when it fails, words and shapes are spread over the letters.
import type { ServiceDeps } from '../../platform/context.js';
import { createSpeech, openAiClient, OpenAiError, OPENAI_SPEECH_RATE } from '../openai/index.js';
import { alignVisemes } from './align-visemes.js';
import type { Phonemiser } from './phoneme-timing.js';
import { estimatedVisemes, estimatedWords } from './visemes-of.js';
import { SynthesisError, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesizer.js';

const SAMPLE_RATE = OPENAI_SPEECH_RATE;
/**
 * How long the sentence waits for the local voice's timing once the provider's audio is in: a local voice
 * backed up by other rooms must not hold the provider's sentence (the letters decide instead).
 */
export const PHONEME_GRACE_MS = 150;

export class OpenAiSpeech implements Synthesizer {
  readonly name = 'openai-speech';

  constructor(
    private readonly deps: Pick<ServiceDeps, 'config' | 'fetch'>,
    private readonly phonemise?: Phonemiser,
    private readonly graceMs = PHONEME_GRACE_MS,
  ) {}

  async synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    const client = openAiClient(this.deps.config.tts, this.deps.fetch, 'speech provider');
    if (!client) throw new SynthesisError('unavailable', 'no speech endpoint is configured');
    // The local voice says it meanwhile (for its timing; where it fails, the letters decide). It stops when
    // the provider fails, so the local voice taking over in the same lane does not wait for it.
    const phonemising = new AbortController();
    const stop = () => phonemising.abort();
    signal.addEventListener('abort', stop, { once: true });
    const timing = (this.phonemise?.(text, voice, phonemising.signal).catch(() => null) ?? Promise.resolve(null)).finally(() =>
      signal.removeEventListener('abort', stop),
    );
    let samples: Int16Array;
    try {
      samples = await createSpeech(
        client,
        { model: this.deps.config.tts.model ?? 'tts-1', input: text, voice: voice.voice ?? 'alloy' },
        signal,
      );
    } catch (error) {
      stop();
      throw error instanceof OpenAiError ? new SynthesisError('provider_failed', error.message) : error;
    }
    const durationMs = (samples.length / SAMPLE_RATE) * 1000;
    const phonemes = await withinGrace(timing, this.graceMs);
    stop(); // late timing is of no use any more
    const aligned = phonemes?.visemes.length ? alignVisemes(samples, SAMPLE_RATE, phonemes) : null;
    // The words as written (captions keep their punctuation), at the aligned times when eSpeak found as many.
    const spread = estimatedWords(text, durationMs);
    const words = aligned?.words.length === spread.length ? spread.map((w, i) => ({ ...w, atMs: aligned.words[i]!.atMs })) : spread;
    async function* events(): AsyncGenerator<SynthesisEvent> {
      for (const word of words) yield { type: 'word', ...word };
      for (const mark of aligned?.visemes ?? estimatedVisemes(text, durationMs)) yield { type: 'viseme', ...mark };
      yield { type: 'audio', samples };
    }
    return { sampleRate: SAMPLE_RATE, events: events() };
  }
}

/** The timing if it comes within `ms`, else null. */
async function withinGrace<T>(timing: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // eslint-disable-next-line no-restricted-globals -- the voice is waiting to be heard: the audio's real time
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([timing, late]);
  } finally {
    clearTimeout(timer);
  }
}
