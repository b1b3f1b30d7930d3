// Media helpers without UI: unlocking audio inside the visitor's gesture (Safari/iOS only play sound
// started from one), device lists, and a microphone level meter for the device check.

let audioContext: AudioContext | null = null;

/** Call synchronously inside a click/keydown handler, before any await. Safe to call often. */
export function unlockAudio(): void {
  try {
    audioContext ??= new AudioContext();
    if (audioContext.state === 'suspended') void audioContext.resume();
    // One silent sample through the context marks the page as having played audio (iOS).
    const buffer = audioContext.createBuffer(1, 1, 22050);
    const source = audioContext.createBufferSource();
    source.buffer = buffer;
    source.connect(audioContext.destination);
    source.start(0);
  } catch {
    // No Web Audio (very old browsers): media elements will still try to play.
  }
}

/** The page's Web Audio context, if one was made (audio-held.ts asks whether it is held). */
export function existingAudioContext(): AudioContext | null {
  return audioContext;
}

export function sharedAudioContext(): AudioContext {
  audioContext ??= new AudioContext();
  return audioContext;
}

export interface DeviceLists {
  microphones: MediaDeviceInfo[];
  cameras: MediaDeviceInfo[];
}

export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices) return { microphones: [], cameras: [] };
  const devices = await navigator.mediaDevices.enumerateDevices();
  return {
    microphones: devices.filter((d) => d.kind === 'audioinput' && d.deviceId),
    cameras: devices.filter((d) => d.kind === 'videoinput' && d.deviceId),
  };
}

/** Live input level (0–1) of a stream's first audio track, polled by the caller on animation frames. */
export class MicLevelMeter {
  readonly #analyser: AnalyserNode;
  readonly #source: MediaStreamAudioSourceNode;
  readonly #samples: Uint8Array<ArrayBuffer>;

  constructor(stream: MediaStream) {
    const context = sharedAudioContext();
    this.#source = context.createMediaStreamSource(stream);
    this.#analyser = context.createAnalyser();
    this.#analyser.fftSize = 512;
    this.#samples = new Uint8Array(this.#analyser.fftSize);
    this.#source.connect(this.#analyser);
  }

  /** Root-mean-square level of the last frame, scaled so speech reaches most of the range. */
  level(): number {
    this.#analyser.getByteTimeDomainData(this.#samples);
    let sum = 0;
    for (const sample of this.#samples) {
      const centered = (sample - 128) / 128;
      sum += centered * centered;
    }
    return Math.min(1, Math.sqrt(sum / this.#samples.length) * 4);
  }

  dispose(): void {
    this.#source.disconnect();
  }
}
