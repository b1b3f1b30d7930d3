// The browser tests' short waits by name. The stand-ins at the boundaries (the public endpoints' bodies and
// scriptedFetch, the in-memory transport, Turnstile) are shared with the stories, in stories/support/.
import { waitFor } from './wait-for.js';

export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the predicate holds (test/browser/helpers/wait-for.ts, probing every 10 ms), failing after
 * `seconds` (eight unless told): one second was enough for one engine alone; three were not for Firefox on
 * a busy two-core machine, where switching to a tab to send it a key alone took 2.5 s.
 */
export async function until(predicate: () => boolean, what = 'condition', seconds = 8): Promise<void> {
  await waitFor(predicate, { timeout: seconds * 1000, what });
}
