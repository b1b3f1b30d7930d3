// The PAL's face in a local room (transport/local.ts): drawn here for a built-in face (Ada) or from a trained
// face's rig, moving with the voice being heard, and `face-ready` said to the room once the visitor sees it,
// so that the PAL greets when it is seen. A rig's files and renderer are asked for as soon as the start's
// answer names them; a rig that does not load leaves the PAL's still image, which is then the face shown.
import type { Participant } from '../../../protocol/room.js';
import { createDrawnFaceTrack, isDrawnFace } from '../media/face/drawn-face.js';
import { DrawingSteadiness } from '../media/face/drawing-steady.js';
import type { FaceTimeline, FaceTrack } from '../media/face/face-track.js';
import { firstFrameShown } from '../media/shown-tracks.js';
import type { PalAudioPlayer } from './pal-audio.js';

/** How many frames of the face are drawn before a page that shows its track in no element of ours is taken to show it (about 0.4 s). */
const UNSHOWN_DRAWS = 10;
/**
 * The longest face-ready waits, after the face's first frame is shown, for its drawing to be steady and for its
 * <video> to have reported the frames that tell the face how far ahead to ask for the shape.
 */
const STEADY_WITHIN_MS = 1000;

/** What the face needs of the call. */
export interface PalFaceCall {
  /** The voice the face follows. */
  readonly player: PalAudioPlayer;
  /** How a rig's files are fetched. */
  readonly fetch: typeof fetch;
  /** Whether the visitor has left: nothing more is drawn or said. */
  left(): boolean;
  /** Tells the room the face is shown (or will not be): called once. */
  faceReady(): void;
  /** The face's track came, or its still image stays: the participants changed. */
  changed(): void;
  /** The rig could not be drawn: the still image shows, and the page hears why. */
  unavailable(message: string): void;
}

export class PalFace {
  #face: FaceTrack | null = null;
  /** A trained face's rig is loading, or did not load (the PAL then shows its still image). */
  #loading = false;
  #unavailable = false;
  /** `face-ready` went to the room: the PAL's face is shown (or will not be), once per call. */
  #readySent = false;
  /** The face's frames drawn while no `<video>` showed its track (see #drawn). */
  #unshownDraws = 0;
  #awaitingVideo = false;
  /** When the `<video>` had the face's first frame; face-ready waits from then for the drawing to be steady. */
  #videoShownAt: number | null = null;
  readonly #drawing = new DrawingSteadiness();
  /** A trained face's rig and renderer, asked for as the start's answer named it (before the room does). */
  #rigEarly: { url: string; fetch: typeof fetch; code: Promise<typeof import('../media/face/rig-face.js')> } | null = null;

  constructor(readonly call: PalFaceCall) {}

  /** The face's video track, once it is drawn. */
  get track(): MediaStreamTrack | null {
    return this.#face?.track ?? null;
  }

  /** Whether the PAL's still image shows instead (its rig did not load). */
  get unavailable(): boolean {
    return this.#unavailable;
  }

  /** The start's answer named a trained face: its rig's files and the renderer's code are asked for now. */
  prefetch(url: string): void {
    const code = import('../media/face/rig-face.js');
    code.catch(() => undefined); // awaited by #showRig, which reports a failure
    this.#rigEarly = { url, fetch: prefetchRig(url, this.call.fetch), code };
  }

  /** The room's PAL (when it has joined) gets its face drawn here. */
  show(pal: Participant | undefined): void {
    if (this.#face || this.#loading || this.#unavailable || !pal) return;
    if (pal.face_rig_url) void this.#showRig(pal.face_rig_url);
    else if (isDrawnFace(pal.face_model)) this.#face = createDrawnFaceTrack(this.#timeline());
    // No face this page draws (a face it does not know): the PAL need not wait for one.
    else this.#shown();
  }

  stop(): void {
    this.#face?.stop();
  }

  /**
   * What a face follows: the voice being heard. Its frames drawn once the face's track is out (the first
   * draw comes before the track exists) lead to face-ready (#drawn).
   */
  #timeline(): FaceTimeline {
    const player = this.call.player;
    return {
      visemeNow: (aheadMs) => player.visemeNow(aheadMs),
      speaking: () => player.speaking(),
      drawn: (at) => {
        player.drawn(at);
        if (this.#face) this.#drawn(this.#face);
      },
    };
  }

  /**
   * A frame of the face was drawn into its track: once the `<video>` showing it has its first frame, the drawing
   * is steady (media/face/drawing-steady.ts) and the face knows how far ahead to ask (FaceTrack.measuring), or at
   * most STEADY_WITHIN_MS later, the face is shown: its first words are then drawn as on time as the rest. A page
   * that shows the track its own way (no element took it within UNSHOWN_DRAWS frames) says so now.
   */
  #drawn(face: FaceTrack): void {
    if (this.#readySent) return;
    const now = performance.now();
    this.#drawing.drawn(now);
    if (this.#videoShownAt !== null) {
      if (this.#settled(face) || now - this.#videoShownAt >= STEADY_WITHIN_MS) this.#shown();
      return;
    }
    if (this.#awaitingVideo) return;
    const shown = firstFrameShown(face.track);
    if (shown) {
      this.#awaitingVideo = true;
      void shown.then(() => {
        this.#videoShownAt = performance.now();
        if (this.#settled(face)) this.#shown();
      });
    } else if (++this.#unshownDraws >= UNSHOWN_DRAWS) {
      this.#shown();
    }
  }

  /** Whether the face is drawn on time and knows how far ahead to ask for the shape: its first words will be on time. */
  #settled(face: FaceTrack): boolean {
    return this.#drawing.steady && !face.measuring();
  }

  /** The PAL's face is shown, or will not be (its still image is): the room may let the PAL speak. Once. */
  #shown(): void {
    if (this.#readySent || this.call.left()) return;
    this.#readySent = true;
    this.call.faceReady();
  }

  /**
   * A trained face's renderer and rig arrive when a call with one starts (as the start's answer names it, or
   * else now, as the room does): its files are asked for at once, while the renderer's code arrives, not after it.
   */
  async #showRig(url: string): Promise<void> {
    this.#loading = true;
    try {
      const early = this.#rigEarly?.url === url ? this.#rigEarly : null;
      const fetch = early?.fetch ?? prefetchRig(url, this.call.fetch);
      const { createRigFace } = await (early?.code ?? import('../media/face/rig-face.js'));
      const face = await createRigFace(url, this.#timeline(), { fetch });
      if (this.call.left()) return face.stop();
      this.#face = face;
    } catch (error) {
      if (this.call.left()) return;
      this.#unavailable = true;
      // The visitor sees the PAL's still image: that is the face shown, and the PAL need not wait.
      this.#shown();
      this.call.unavailable(
        error instanceof Error && error.name === 'RigLoadError' ? error.message : "The face's renderer could not be loaded.",
      );
    } finally {
      this.#loading = false;
    }
    this.call.changed();
  }
}

/**
 * Starts fetching a rig's files now: rig.json, and as soon as it is read the two sheets it names (relative
 * to it). The fetch returned hands each of them out (a copy, so each reader has its own body), and fetches
 * anything else as `fetcher` does.
 */
export function prefetchRig(url: string, fetcher: typeof fetch): typeof fetch {
  const started = new Map<string, Promise<Response>>();
  const get = (target: string): Promise<Response> => {
    const response = fetcher(target);
    response.catch(() => undefined); // read later by the rig's loader, which reports a failure
    started.set(target, response);
    return response;
  };
  const base = new URL(url, location.href);
  void get(url)
    .then(async (response) => {
      const rig = (await response.clone().json()) as { idle?: { url?: unknown }; mouths?: { sheet?: { url?: unknown } } };
      for (const sheet of [rig.idle?.url, rig.mouths?.sheet?.url]) if (typeof sheet === 'string') get(new URL(sheet, base).href);
    })
    .catch(() => undefined);
  return ((input: RequestInfo | URL) => {
    const response = started.get(String(input));
    return response ? response.then((r) => r.clone()) : fetcher(input);
  }) as typeof fetch;
}
