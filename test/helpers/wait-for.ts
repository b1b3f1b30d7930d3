// The one way a test waits for something that happens in its own time (a callback arriving, a row written,
// a process exiting): `waitFor` asks again every `interval` ms until the probe gives a truthy value, and fails
// after `timeout` with what it was waiting for (and the last value seen). It is not for making time pass:
// the service's timers run on the test's clock (test/helpers/clock.ts, `advance`), and a fixed sleep has no
// place in the gate (eslint.config.js forbids them outside test/realtime).
import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** Milliseconds before giving up (default 10 000: generous on a busy two-core machine; the wait ends as soon as the probe holds). */
  timeout?: number;
  /** Milliseconds between two probes (default 20). */
  interval?: number;
  /** What the test waits for, for the error: a text, or a function that reads the state at the time. */
  what?: string | (() => string);
}

/** Resolves with the probe's first truthy value; rejects once `timeout` passes without one. */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 10_000, interval = 20, what = 'a condition' } = options;
  const deadline = performance.now() + timeout;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (performance.now() >= deadline) {
      const described = typeof what === 'function' ? what() : what;
      throw new Error(`timed out after ${timeout} ms waiting for ${described} (last: ${String(last)})`);
    }
    await delay(interval);
  }
}
