// One utterance of echo audio (`conversation.echo` with `modality: "audio"`): base64 16-bit PCM chunks
// arrive as app-messages and are said as they come; `done` (or a pause of IDLE_MS) ends the utterance.
import { randomUUID } from 'node:crypto';
import type { SpeechSource } from './utterances.js';

const IDLE_MS = 2000;
/** An utterance holds at most this much audio (10 minutes at 24 kHz). */
const MAX_SAMPLES = 24000 * 600;

export class EchoAudioStream {
  private readonly chunks: Int16Array[] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private received = 0;
  private odd: number | null = null;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly sampleRate: number,
    private readonly onEnd: () => void,
  ) {
    this.armIdle();
  }

  push(bytes: Buffer): void {
    if (this.ended) return;
    // A chunk may split a sample between two messages.
    const whole = this.odd === null ? bytes : Buffer.concat([Buffer.from([this.odd]), bytes]);
    this.odd = whole.length % 2 ? whole[whole.length - 1]! : null;
    const samples = new Int16Array(Math.floor(whole.length / 2));
    for (let i = 0; i < samples.length; i++) samples[i] = whole.readInt16LE(i * 2);
    this.received += samples.length;
    if (this.received > MAX_SAMPLES) return this.end();
    this.chunks.push(samples);
    this.armIdle();
    this.wake?.();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idle);
    this.onEnd();
    this.wake?.();
  }

  readonly source: SpeechSource = async function* (this: EchoAudioStream, signal: AbortSignal) {
    signal.addEventListener('abort', () => this.end(), { once: true });
    for (;;) {
      const next = this.chunks.shift();
      if (next) yield { samples: next, sampleRate: this.sampleRate };
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }.bind(this);

  private armIdle(): void {
    clearTimeout(this.idle);
    // eslint-disable-next-line no-restricted-globals -- the end of the echoed audio stream: the audio's real time
    this.idle = setTimeout(() => this.end(), IDLE_MS);
    this.idle.unref();
  }
}

/** The echo utterances open now, by inference id: each chunk joins its own, a new id opens one. */
export class EchoAudioStreams {
  private readonly open = new Map<string, EchoAudioStream>();

  /** `say` queues an utterance; it settles with null when the utterance was dropped before its turn. */
  constructor(private readonly say: (source: SpeechSource, inferenceId: string) => Promise<unknown>) {}

  /** Echo audio: base64 16-bit PCM chunks of one utterance (same inference_id), said as they arrive, until `done`. */
  chunk(p: Record<string, unknown>): void {
    const inferenceId = typeof p.inference_id === 'string' && p.inference_id ? p.inference_id.slice(0, 128) : randomUUID();
    const sampleRate =
      typeof p.sample_rate === 'number' && p.sample_rate >= 8000 && p.sample_rate <= 48000 ? Math.round(p.sample_rate) : 24000;
    let stream = this.open.get(inferenceId);
    if (!stream) {
      stream = new EchoAudioStream(sampleRate, () => this.open.delete(inferenceId));
      this.open.set(inferenceId, stream);
      const opened = stream;
      // Dropped before its turn (an interrupt, or the speaker's queue is full): stop keeping its audio.
      void this.say(opened.source, inferenceId).then((said) => said ?? opened.end());
    }
    if (typeof p.audio === 'string' && p.audio) stream.push(Buffer.from(p.audio, 'base64'));
    if (p.done === true) stream.end();
  }
}
