// The visitor's camera in palkit's own room: the self view's track, switched on and off or to another
// device, and the frames a perceiving PAL is sent every few seconds while the camera is on.
import { stopTrack } from '../media/shown-tracks.js';
import type { Timers } from '../timers.js';
import { CameraFrameSender } from './camera-frames.js';

export interface LocalCameraOptions {
  getUserMedia?: ((constraints: MediaStreamConstraints) => Promise<MediaStream>) | undefined;
  fetch?: typeof fetch | undefined;
  timers?: Timers | undefined;
  /** The visitor left: a camera that opens after that is closed at once. */
  left(): boolean;
  /** The self view changed (the transport's participants). */
  changed(): void;
}

export class LocalCamera {
  #stream: MediaStream | null = null;
  #on = false;
  #frames: CameraFrameSender | null = null;

  constructor(private readonly options: LocalCameraOptions) {}

  get on(): boolean {
    return this.#on;
  }

  /** The self view's track while the camera is on. */
  get track(): MediaStreamTrack | null {
    return this.#on ? (this.#stream?.getVideoTracks()[0] ?? null) : null;
  }

  /** As the call is joined: on (opening the device) or off. */
  start(on: boolean, deviceId: string | undefined): void {
    this.#on = on;
    if (on) void this.#open(deviceId);
  }

  setEnabled(enabled: boolean): void {
    this.#on = enabled;
    for (const track of this.#stream?.getVideoTracks() ?? []) track.enabled = enabled;
    if (enabled && !this.#stream) void this.#open();
    this.options.changed();
  }

  async switchTo(deviceId: string): Promise<void> {
    this.#stopTracks();
    await this.#open(deviceId);
  }

  /** The PAL perceives: it sees what the visitor's camera shows, a frame every few seconds, while the camera is on. */
  perceive(perception: { frames_url: string; interval_ms: number }, token: string): void {
    this.#frames = new CameraFrameSender({
      url: perception.frames_url,
      token,
      intervalMs: perception.interval_ms,
      track: () => this.track,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
    });
  }

  stop(): void {
    this.#frames?.stop();
    this.#stopTracks();
  }

  async #open(deviceId?: string): Promise<void> {
    const getUserMedia = this.options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
    try {
      const stream = await getUserMedia({ video: deviceId ? { deviceId: { exact: deviceId } } : true });
      if (this.options.left()) {
        for (const track of stream.getTracks()) stopTrack(track);
        return;
      }
      this.#stream = stream;
      for (const track of stream.getVideoTracks()) track.enabled = this.#on;
      this.options.changed();
    } catch {
      // No camera or permission refused: the call goes on without a self view.
      this.#on = false;
      this.options.changed();
    }
  }

  #stopTracks(): void {
    for (const track of this.#stream?.getTracks() ?? []) stopTrack(track);
    this.#stream = null;
  }
}
