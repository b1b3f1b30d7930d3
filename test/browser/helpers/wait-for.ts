// The browser tests' twin of test/helpers/wait-for.ts, on @open-wc/testing's waitUntil: probes every
// `interval` ms until the probe gives a truthy value (which it resolves with), failing after `timeout` with
// what it waited for. Wait for an event with oneEvent (re-exported here); never for a fixed time.
import { oneEvent, waitUntil } from '@open-wc/testing';

export { oneEvent };

export interface WaitOptions {
  /** Milliseconds before giving up (default 3 000). */
  timeout?: number;
  /** Milliseconds between two probes (default 10). */
  interval?: number;
  /** What the test waits for, for the error. */
  what?: string;
}

export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 3000, interval = 10, what = 'a condition' } = options;
  let value: T | undefined;
  await waitUntil(async () => Boolean((value = await probe())), `timed out after ${timeout} ms waiting for ${what}`, { timeout, interval });
  return value as NonNullable<T>;
}
