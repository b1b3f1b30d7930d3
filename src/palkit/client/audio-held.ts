// Whether the browser holds the page's Web Audio (the PAL's voice in a local room plays through it): the
// stage offers "Tap to turn on sound" when it does. Apart from media.ts, as only the call's stage asks: the
// elements' code before a call stays within its budget (npm run size).
import { existingAudioContext } from './media.js';
import { pageTimers, type Timers } from './timers.js';

/**
 * How long Web Audio may take to start on a page the visitor has used: Firefox, asked to resume within the
 * visitor's click, ran its context 1.1 s later here (opening the audio output), and a stage that looked
 * after 300 ms offered "Tap to turn on sound" in every call.
 */
export const AUDIO_STARTING_MS = 3000;

/**
 * Whether the page's Web Audio is held suspended by the browser's autoplay policy (no gesture since this
 * page loaded, e.g. after a reload rejoined a call): waits `waitMs` for a resume already asked for, or, on a
 * page the visitor has used (its sticky activation, which lets Chromium and Firefox start it), until it starts
 * or AUDIO_STARTING_MS pass.
 */
export async function audioHeld(waitMs = 300, timers: Timers = pageTimers): Promise<boolean> {
  const context = existingAudioContext();
  if (!context || context.state !== 'suspended') return false;
  const used = 'userActivation' in navigator && navigator.userActivation.hasBeenActive;
  await new Promise<void>((resolve) => {
    const started = () => {
      if (context.state !== 'suspended') done();
    };
    const done = () => {
      timers.clear(timer);
      context.removeEventListener('statechange', started);
      resolve();
    };
    const timer = timers.setTimeout(done, used ? Math.max(waitMs, AUDIO_STARTING_MS) : waitMs);
    if (used) context.addEventListener('statechange', started);
  });
  return context.state === 'suspended';
}
