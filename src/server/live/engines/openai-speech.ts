// An OpenAI-compatible speech endpoint (PALKIT_TTS_*, through providers/openai): POST …/audio/speech with
// `{ model, input, voice, response_format: "pcm" }`, answered with raw 16-bit mono PCM at 24 kHz, sent in
// chunks. The provider gives no timing, so words and mouth shapes are spread over the audio by its
// letters once the sentence has arrived (a sentence arrives much faster than it is spoken).
import type { ServiceDeps } from '../../app/context.js';
import { createSpeech, openAiClient, OpenAiError, OPENAI_SPEECH_RATE } from '../../providers/openai/index.js';
import { estimatedVisemes, estimatedWords } from './visemes-of.js';
import { SynthesisError, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesizer.js';

const SAMPLE_RATE = OPENAI_SPEECH_RATE;

export class OpenAiSpeech implements Synthesizer {
  readonly name = 'openai-speech';

  constructor(private readonly deps: Pick<ServiceDeps, 'config' | 'fetch'>) {}

  async synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    const client = openAiClient(this.deps.config.tts, this.deps.fetch, 'speech provider');
    if (!client) throw new SynthesisError('unavailable', 'no speech endpoint is configured');
    let samples: Int16Array;
    try {
      samples = await createSpeech(client, { model: this.deps.config.tts.model ?? 'tts-1', input: text, voice: voice.voice ?? 'alloy' }, signal);
    } catch (error) {
      throw error instanceof OpenAiError ? new SynthesisError('provider_failed', error.message) : error;
    }
    const durationMs = (samples.length / SAMPLE_RATE) * 1000;
    async function* events(): AsyncGenerator<SynthesisEvent> {
      for (const word of estimatedWords(text, durationMs)) yield { type: 'word', ...word };
      for (const mark of estimatedVisemes(text, durationMs)) yield { type: 'viseme', ...mark };
      yield { type: 'audio', samples };
    }
    return { sampleRate: SAMPLE_RATE, events: events() };
  }
}
