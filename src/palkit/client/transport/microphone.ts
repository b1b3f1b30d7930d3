// Sends the visitor's microphone to the local room: an AudioWorklet turns the track into 16 kHz 16-bit
// slices of 20 ms (the room's microphone frames), which the service listens to (voice activity, and
// transcription where it has a recogniser). The browser's echo cancellation keeps the PAL's voice out.
import { AudioFrameKind, encodeAudioFrame } from '../../../protocol/room.js';

export const MICROPHONE_RATE = 16000;
const SLICE = MICROPHONE_RATE / 50;

// Runs on the audio thread; averages the input down to 16 kHz (the context runs at 44.1/48 kHz).
const WORKLET = `
registerProcessor('palkit-microphone', class extends AudioWorkletProcessor {
  constructor() { super(); this.out = new Int16Array(${SLICE}); this.n = 0; this.acc = 0; this.count = 0; this.pos = 0; }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    const step = sampleRate / ${MICROPHONE_RATE};
    for (let i = 0; i < input.length; i++) {
      this.acc += input[i]; this.count++; this.pos++;
      if (this.pos >= step) {
        this.pos -= step;
        const v = Math.max(-1, Math.min(1, this.acc / this.count));
        this.out[this.n++] = v * 32767; this.acc = 0; this.count = 0;
        if (this.n === this.out.length) { this.port.postMessage(this.out.slice()); this.n = 0; }
      }
    }
    return true;
  }
});`;

const loaded = new WeakMap<AudioContext, Promise<void>>();

function loadWorklet(context: AudioContext): Promise<void> {
  let loading = loaded.get(context);
  if (!loading) {
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    loading = context.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url));
    loaded.set(context, loading);
  }
  return loading;
}

export class MicrophoneSender {
  #stream: MediaStream | null = null;
  #node: AudioWorkletNode | null = null;
  #source: MediaStreamAudioSourceNode | null = null;
  #enabled = true;
  #closed = false;

  constructor(
    private readonly context: AudioContext,
    private readonly send: (bytes: Uint8Array) => void,
  ) {}

  /** Opens the microphone and starts sending; rejects when there is none or it was refused. */
  async open(getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>, deviceId?: string): Promise<void> {
    const audio: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true, ...(deviceId ? { deviceId: { exact: deviceId } } : {}) };
    const stream = await getUserMedia({ audio });
    if (this.#closed) return void stop(stream);
    await loadWorklet(this.context);
    if (this.#closed) return void stop(stream);
    this.#release();
    this.#stream = stream;
    this.#source = this.context.createMediaStreamSource(stream);
    this.#node = new AudioWorkletNode(this.context, 'palkit-microphone');
    this.#node.port.onmessage = (event: MessageEvent<Int16Array>) => {
      if (this.#enabled) this.send(encodeAudioFrame({ kind: AudioFrameKind.microphone, viseme: 0, sampleRate: MICROPHONE_RATE, samples: event.data }));
    };
    this.#source.connect(this.#node);
    this.setEnabled(this.#enabled);
  }

  /** A muted microphone sends nothing (and the browser's indicator shows it is not used). */
  setEnabled(enabled: boolean): void {
    this.#enabled = enabled;
    for (const track of this.#stream?.getAudioTracks() ?? []) track.enabled = enabled;
  }

  get track(): MediaStreamTrack | null {
    return this.#stream?.getAudioTracks()[0] ?? null;
  }

  close(): void {
    this.#closed = true;
    this.#release();
  }

  #release(): void {
    this.#source?.disconnect();
    this.#node?.disconnect();
    if (this.#node) this.#node.port.onmessage = null;
    if (this.#stream) stop(this.#stream);
    this.#stream = null;
    this.#node = null;
    this.#source = null;
  }
}

function stop(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
