// Camera frames for a PAL that perceives: every `intervalMs` while the camera is on, one JPEG of the
// visitor's camera (at most 512 px wide) is posted to the room's frames URL with the meeting token.
// A refusal that will not change (the token, the conversation ended, perception off) stops the sampling.
import { show } from '../media/shown-tracks.js';
import { pageTimers, type TimerHandle, type Timers } from '../timers.js';

const MAX_WIDTH = 512;
const QUALITY = 0.7;

export interface FrameSenderOptions {
  url: string;
  token: string;
  intervalMs: number;
  /** The camera track while the camera is on, else null. */
  track: () => MediaStreamTrack | null;
  fetch?: typeof fetch;
  /** The clock the interval runs on (default: the page's). */
  timers?: Timers;
}

export class CameraFrameSender {
  #timer: TimerHandle | null = null;
  #video: HTMLVideoElement | null = null;
  #busy = false;
  readonly #options: FrameSenderOptions;

  constructor(options: FrameSenderOptions) {
    this.#options = options;
    // The first frame soon after joining, then one per interval.
    this.#timer = (options.timers ?? pageTimers).setInterval(() => void this.#tick(), Math.max(1000, options.intervalMs));
  }

  stop(): void {
    if (this.#timer) (this.#options.timers ?? pageTimers).clear(this.#timer);
    this.#timer = null;
    if (this.#video) this.#video.srcObject = null;
    this.#video = null;
  }

  async #tick(): Promise<void> {
    const track = this.#options.track();
    if (this.#busy || !track || !track.enabled || track.readyState !== 'live') return;
    this.#busy = true;
    try {
      const frame = await this.#capture(track);
      // The visitor turned the camera off while the frame was being encoded: it is not sent.
      if (!frame || !this.#timer || this.#options.track() !== track || !track.enabled) return;
      const response = await (this.#options.fetch ?? fetch)(this.#options.url, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${this.#options.token}` },
        body: frame,
      });
      if ([401, 404, 409, 410].includes(response.status)) this.stop();
    } catch {
      // A lost frame is not worth telling anyone about; the next one may get through.
    } finally {
      this.#busy = false;
    }
  }

  async #capture(track: MediaStreamTrack): Promise<Blob | null> {
    if (!this.#video || (this.#video.srcObject as MediaStream | null)?.getVideoTracks()[0] !== track) {
      this.#video ??= document.createElement('video');
      this.#video.muted = true;
      this.#video.playsInline = true;
      show(this.#video, new MediaStream([track]));
      await this.#video.play();
    }
    const video = this.#video;
    if (!video.videoWidth) return null;
    const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY));
  }
}
