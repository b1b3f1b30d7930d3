// Sends the visitor's microphone to the local room: an AudioWorklet turns the track into 16 kHz 16-bit
// slices of 20 ms (the room's microphone frames), which the service listens to (voice activity, and
// transcription where it has a recogniser). The browser's echo cancellation keeps the PAL's voice out.
import { AudioFrameKind, encodeAudioFrame } from '../../../protocol/room.js';
import { MICROPHONE_RATE, MICROPHONE_WORKLET } from './microphone-worklet.js';
import { stopTrack } from '../media/shown-tracks.js';

export { MICROPHONE_RATE } from './microphone-worklet.js';

const loaded = new WeakMap<AudioContext, Promise<void>>();

/**
 * Loads the worklet into the context: the service's file when its address is known (a page whose
 * Content-Security-Policy allows only the service's origin refuses `blob:` scripts), else a `blob:` URL.
 */
function loadWorklet(context: AudioContext, moduleUrl: string | undefined): Promise<void> {
  let loading = loaded.get(context);
  if (!loading) {
    const fromBlob = () => {
      const url = URL.createObjectURL(new Blob([MICROPHONE_WORKLET], { type: 'text/javascript' }));
      return context.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url));
    };
    loading = moduleUrl ? context.audioWorklet.addModule(moduleUrl).catch(fromBlob) : fromBlob();
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
    /** Where the service serves the worklet (MICROPHONE_WORKLET_FILE), when known. */
    private readonly workletUrl?: string,
  ) {}

  /** Opens the microphone and starts sending; rejects when there is none or it was refused. */
  async open(getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>, deviceId?: string): Promise<void> {
    const audio: MediaTrackConstraints = {
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    };
    const stream = await getUserMedia({ audio });
    if (this.#closed) return void stop(stream);
    await loadWorklet(this.context, this.workletUrl);
    if (this.#closed) return void stop(stream);
    this.#release();
    this.#stream = stream;
    this.#source = this.context.createMediaStreamSource(stream);
    this.#node = new AudioWorkletNode(this.context, 'palkit-microphone');
    this.#node.port.onmessage = (event: MessageEvent<Int16Array>) => {
      if (this.#enabled)
        this.send(encodeAudioFrame({ kind: AudioFrameKind.microphone, viseme: 0, sampleRate: MICROPHONE_RATE, samples: event.data }));
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
  for (const track of stream.getTracks()) stopTrack(track);
}
