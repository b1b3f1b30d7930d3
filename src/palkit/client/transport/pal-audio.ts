// Plays the PAL's voice from the local room: audio slices arrive over the WebSocket a little ahead of
// time, are scheduled back to back on Web Audio, and come out as a MediaStream audio track — the shape a
// Daily room gives — so the stage plays both providers the same way. It also knows which mouth shape is
// being heard now, for the face.
import type { AudioFrame } from '../../../protocol/room.js';
import { visemeAt, type Viseme } from '../../../protocol/visemes.js';

/** Jitter buffer: playback starts this long after the first slice of a run arrives. */
const JITTER_S = 0.06;

interface Scheduled {
  source: AudioBufferSourceNode;
  start: number;
  end: number;
  viseme: Viseme;
}

export class PalAudioPlayer {
  readonly #context: AudioContext;
  readonly #output: MediaStreamAudioDestinationNode;
  #queue: Scheduled[] = [];
  #nextStart = 0;

  constructor(context: AudioContext) {
    this.#context = context;
    this.#output = context.createMediaStreamDestination();
  }

  /** The PAL's voice as a live audio track. */
  get track(): MediaStreamTrack {
    return this.#output.stream.getAudioTracks()[0]!;
  }

  play(frame: AudioFrame): void {
    const context = this.#context;
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const buffer = context.createBuffer(1, frame.samples.length, frame.sampleRate);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < frame.samples.length; i++) channel[i] = frame.samples[i]! / 32768;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#output);
    // Back to back while slices keep coming; after a gap, start again behind a small jitter buffer.
    const start = Math.max(this.#nextStart, context.currentTime + (this.#nextStart > context.currentTime ? 0 : JITTER_S));
    source.start(start);
    this.#nextStart = start + buffer.duration;
    const scheduled: Scheduled = { source, start, end: this.#nextStart, viseme: visemeAt(frame.viseme) };
    source.addEventListener('ended', () => {
      const at = this.#queue.indexOf(scheduled);
      if (at >= 0) this.#queue.splice(at, 1);
    });
    this.#queue.push(scheduled);
  }

  /** Drops everything scheduled (the PAL was interrupted): silence within one audio callback. */
  flush(): void {
    for (const { source } of this.#queue) {
      try {
        source.stop();
      } catch {
        /* never started */
      }
      source.disconnect();
    }
    this.#queue = [];
    this.#nextStart = 0;
  }

  /** Whether the PAL's voice is being heard now. */
  speaking(): boolean {
    return this.#context.currentTime < this.#nextStart;
  }

  /** The mouth shape of what is being heard now. */
  visemeNow(): Viseme {
    const now = this.#context.currentTime;
    return this.#queue.find((s) => s.start <= now && now < s.end)?.viseme ?? 'rest';
  }

  close(): void {
    this.flush();
    this.track.stop();
  }
}
