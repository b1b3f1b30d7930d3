// The PAL's first words wait for its face (issue 32): a visitor whose page draws the PAL's face (Ada, or a
// trained face's rig, which loads for a second or two) would otherwise hear the greeting begin before the
// face appears, its first words spoken by no mouth. A page that says it will tell (`join.face_ready`) sends
// `face-ready` once its `<video>` has the face's first frame (or once it gave up on the face and shows the
// still image); the room holds the PAL's first line until then, at most FACE_WAIT_MS on the service's clock.
// Nothing waits for a PAL without a drawn face, a page that never said it would tell (an older page, the
// Daily path), or a visitor in text mode (the greeting is written, not spoken).
import type { Clock, ClockTimer } from '../../platform/time.js';

/** The longest the PAL's first line waits for its face to be shown: past it, the PAL speaks to a still image. */
export const FACE_WAIT_MS = 3000;

/** Why the wait ended: the face was shown, the bound passed, or there was nothing to wait for. */
export type FaceShownBy = 'face-ready' | 'bound' | 'none' | 'closed';

export class FaceShown {
  /** Resolves once the PAL may speak; never rejects. */
  readonly shown: Promise<FaceShownBy>;
  private by: FaceShownBy | null = null;
  private release!: (by: FaceShownBy) => void;
  private timer: ClockTimer | undefined;

  /** `wait`: whether there is a face to wait for (see faceToWaitFor); without one the PAL speaks at once. */
  constructor(
    private readonly clock: Clock,
    wait: boolean,
    boundMs = FACE_WAIT_MS,
  ) {
    this.shown = new Promise((resolve) => (this.release = resolve));
    if (!wait) {
      this.open('none');
      return;
    }
    this.timer = clock.setTimeout(() => this.open('bound'), boundMs);
    this.timer.unref();
  }

  /** Whether the PAL's first line still waits. */
  get waiting(): boolean {
    return this.by === null;
  }

  /** The face was shown (`face-ready`), the bound passed, or the room closes: the PAL may speak. Idempotent. */
  open(by: FaceShownBy): void {
    if (this.by !== null) return;
    this.by = by;
    this.clock.clearTimeout(this.timer);
    this.release(by);
  }
}

/**
 * Whether the PAL's first line waits for its face: the PAL has a face the page draws (a built-in one or a
 * trained face's rig), the page joined saying it reports the face shown, and the visitor listens (not text mode).
 */
export function faceToWaitFor(
  pal: { face_model?: string | null | undefined; face_rig_url?: string | undefined },
  joining: { faceReady?: boolean | undefined; textMode?: boolean | undefined },
): boolean {
  return Boolean(pal.face_model || pal.face_rig_url) && joining.faceReady === true && joining.textMode !== true;
}
