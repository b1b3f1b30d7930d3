// An OpenAI-compatible speech endpoint: POST {PALKIT_TTS_BASE_URL}/audio/speech with
// `{ model, input, voice, response_format: "pcm" }`, answered with raw 16-bit mono PCM at 24 kHz, sent in
// chunks. The provider gives no timing, so words and mouth shapes are spread over the audio by its
// letters once the sentence has arrived (a sentence arrives much faster than it is spoken).
import type { ServiceDeps } from '../../app/context.js';
import { estimatedVisemes, estimatedWords } from './visemes-of.js';
import { SynthesisError, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesis.js';

const SAMPLE_RATE = 24000;
/** At most a minute of audio for one sentence. */
const MAX_BYTES = SAMPLE_RATE * 2 * 60;

export class OpenAiSpeech implements Synthesizer {
  readonly name = 'openai-speech';

  constructor(private readonly deps: Pick<ServiceDeps, 'config' | 'fetch'>) {}

  async synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    const { baseUrl, apiKey, model } = this.deps.config.tts;
    if (!baseUrl) throw new SynthesisError('unavailable', 'no speech endpoint is configured');
    let response: Response;
    try {
      response = await this.deps.fetch(`${baseUrl}/audio/speech`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model: model ?? 'tts-1', input: text, voice: voice.voice ?? 'alloy', response_format: 'pcm' }),
        signal,
        timeoutMs: 15_000,
        maxBytes: MAX_BYTES,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new SynthesisError('provider_failed', `speech provider unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
      throw new SynthesisError('provider_failed', `speech provider answered ${response.status}${typeof body?.error?.message === 'string' ? `: ${body.error.message}` : ''}`);
    }
    let bytes: Buffer;
    try {
      const parts: Buffer[] = [];
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(chunk));
      bytes = Buffer.concat(parts);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new SynthesisError('provider_failed', `speech provider broke off: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (bytes.length < 2) throw new SynthesisError('provider_failed', 'speech provider sent no audio');
    const samples = new Int16Array(Math.floor(bytes.length / 2));
    for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
    const durationMs = (samples.length / SAMPLE_RATE) * 1000;
    async function* events(): AsyncGenerator<SynthesisEvent> {
      for (const word of estimatedWords(text, durationMs)) yield { type: 'word', ...word };
      for (const mark of estimatedVisemes(text, durationMs)) yield { type: 'viseme', ...mark };
      yield { type: 'audio', samples };
    }
    return { sampleRate: SAMPLE_RATE, events: events() };
  }
}
