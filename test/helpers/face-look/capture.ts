// The face-look instrument's page script (issue 51, point 7): every frame the PAL's <video> presents, a crop
// around the face at a fixed size, kept as RGB until the test takes it. It runs beside the lip-sync
// instruments (helpers/lip-sync.ts, whose audio levels say which frames were shown in silence) and finds the
// <video> through the same page probes. It starts with the <video>'s first frame, around where the face is
// known to be (from the rig's mouth: finding the face first took seconds of the greeting under load);
// `__look.take(n)` hands over and forgets the oldest n; `__look.full()` gives one whole frame (a PNG data URL).
// Frames are taken as Chromium and Firefox present them (requestVideoFrameCallback, at their display time);
// WebKitGTK never calls it for a MediaStream, so there each animation frame reads the <video> and keeps a
// reading that differs from the last (as the lip-sync instruments do).
import type { MouthBox } from '../lip-sync.js';

export interface Crop {
  sx: number;
  sy: number;
  side: number;
  /** The crop is scaled to size×size. */
  size: number;
}

/** Where to crop, as shares of the <video>'s height (side) and of its width and height (the centre). */
export interface CropShare {
  cx: number;
  cy: number;
  side: number;
}

/**
 * The square around a face from its mouth's box (lip-sync.ts: a rig's poses' mouths, 1.2 mouth widths wide):
 * a face is about three mouth widths tall and its middle a fifth of that above the mouth; the square is twice
 * the face, within the frame.
 */
export function cropAroundMouth(box: MouthBox): CropShare {
  const mouthWidth = box.w / 1.2;
  const face = 3 * mouthWidth;
  return {
    cx: (box.x + box.w / 2) / box.width,
    cy: (box.y + box.h / 2 - 0.2 * face) / box.height,
    side: Math.min(1, (2 * face) / box.height),
  };
}

export const lookCapture = (share: CropShare, size: number): string => `
if (!window.__look) {
  window.__look = { frames: [], crop: null, presented: 0 };
  const canvas = document.createElement('canvas');
  let context = null;
  const video = () => window.__probes.inside('pal-stage', 'video.pal');
  let last = null;
  const grab = (v, at) => {
    const { sx, sy, side, size } = window.__look.crop;
    context.drawImage(v, sx, sy, side, side, 0, 0, size, size);
    let rgba;
    try {
      rgba = context.getImageData(0, 0, size, size).data;
    } catch {
      // A tainted <video> (pixels from another origin without CORS): nothing can be read, said once.
      window.__look.tainted = true;
      return { at, rgb: last ?? new Uint8Array(size * size * 3), same: true };
    }
    const rgb = new Uint8Array(size * size * 3);
    let same = last !== null;
    for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
      rgb[j] = rgba[i]; rgb[j + 1] = rgba[i + 1]; rgb[j + 2] = rgba[i + 2];
      if (same && (last[j] !== rgb[j] || last[j + 1] !== rgb[j + 1])) same = false;
    }
    last = rgb;
    return { at, rgb, same };
  };
  const REFRESH_MS = 1000 / 60;
  const onFrame = (v) => (now, meta) => {
    window.__look.presented++;
    // Every presented frame is kept, the same pixels again too: the face may hold still.
    const { at, rgb } = grab(v, meta.expectedDisplayTime > meta.presentationTime ? meta.expectedDisplayTime : (meta.presentationTime || now) + REFRESH_MS);
    if (window.__look.tainted) return;
    window.__look.frames.push({ at, rgb });
    v.requestVideoFrameCallback(onFrame(v));
  };
  let called = false;
  // Where the <video> counts the frames it presents, an animation frame reads it back only when that count
  // moved: a readback every animation frame took the page's main thread from the face's own drawing.
  let counted = -1;
  const paint = (v) => (now) => {
    if (called || window.__look.tainted) return;
    const count = window.__look.shown();
    if (count === 0 || count !== counted) {
      counted = count;
      const { at, rgb, same } = grab(v, now + REFRESH_MS);
      if (!same) window.__look.frames.push({ at, rgb });
    }
    requestAnimationFrame(paint(v));
  };
  window.__look.full = () => {
    const v = video();
    if (!v || !v.videoWidth) return null;
    const c = document.createElement('canvas');
    c.width = v.videoWidth; c.height = v.videoHeight;
    c.getContext('2d').drawImage(v, 0, 0);
    return c.toDataURL('image/png');
  };
  const start = (v) => {
    const side = Math.round(Math.min(v.videoWidth, v.videoHeight, ${share.side} * v.videoHeight));
    const crop = {
      sx: Math.round(Math.max(0, Math.min(v.videoWidth - side, ${share.cx} * v.videoWidth - side / 2))),
      sy: Math.round(Math.max(0, Math.min(v.videoHeight - side, ${share.cy} * v.videoHeight - side / 2))),
      side, size: ${size},
    };
    window.__look.crop = crop;
    window.__look.video = { width: v.videoWidth, height: v.videoHeight };
    // Where requestVideoFrameCallback never answers (WebKitGTK), the frames the <video> says it presented.
    const shown = () => { try { return v.getVideoPlaybackQuality().totalVideoFrames || 0; } catch { return 0; } };
    const shownAtStart = shown();
    window.__look.shown = () => shown() - shownAtStart;
    canvas.width = crop.size; canvas.height = crop.size;
    context = canvas.getContext('2d', { willReadFrequently: true });
    // The animation frames' readings go once requestVideoFrameCallback answers (another clock stamped them).
    if (v.requestVideoFrameCallback) v.requestVideoFrameCallback((now, meta) => { called = true; window.__look.frames.length = 0; onFrame(v)(now, meta); });
    requestAnimationFrame(paint(v));
  };
  const waiting = setInterval(() => {
    const v = video();
    if (v && v.srcObject instanceof MediaStream && v.videoWidth) {
      clearInterval(waiting);
      start(v);
    }
  }, 20);
  window.__look.take = (n) => window.__look.frames.splice(0, n).map(({ at, rgb }) => {
    let s = '';
    for (let i = 0; i < rgb.length; i += 8192) s += String.fromCharCode.apply(null, rgb.subarray(i, i + 8192));
    return { at, b64: btoa(s) };
  });
}
`;
