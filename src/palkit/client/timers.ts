// The page's clock and timers, as the client's parts that wait take them: the page's own by default, a
// test's manual clock in tests (test/browser/helpers/test-clock.ts), which moves time with advance() so
// that a backoff or an interval passes at once and "nothing happened meanwhile" is checked without sleeping.

/** A timer's handle, as setTimeout or setInterval gave it. */
export type TimerHandle = unknown;

export interface Timers {
  /** Epoch ms, as Date.now(). */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  setInterval(callback: () => void, ms: number): TimerHandle;
  /** Stops a timer from either setTimeout or setInterval; undefined is ignored. */
  clear(handle: TimerHandle | undefined): void;
}

type Handle = ReturnType<typeof setTimeout>;

/** The page's own (the globals, looked up at each call). */
export const pageTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  setInterval: (callback, ms) => setInterval(callback, ms),
  // clearTimeout and clearInterval share one list of timers (HTML's timer initialisation steps).
  clear: (handle) => clearTimeout(handle as Handle | undefined),
};
