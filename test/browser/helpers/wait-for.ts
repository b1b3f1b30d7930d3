// The browser tests' one way to wait, the twin of test/helpers/wait-for.ts: `waitFor` probes every `interval`
// ms (on @open-wc/testing's waitUntil) until the probe gives a truthy value, which it resolves with, failing
// after `timeout` with what it waited for; `oneEvent` waits for an event; `nextTurn` lets the page's event
// loop take one turn (work already started settles: promise chains, a render). Never a fixed time.
import { oneEvent, waitUntil } from '@open-wc/testing';

export { oneEvent };

export interface WaitOptions {
  /**
   * Milliseconds before giving up (default 8 000: past the 5 s a test has, so a test's own budget ends its
   * waits, and the few given longer — a walk through every screen — still wait for each state that long).
   */
  timeout?: number;
  /** Milliseconds between two probes (default 10). */
  interval?: number;
  /** What the test waits for, for the error. */
  what?: string;
}

export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 8000, interval = 10, what = 'a condition' } = options;
  let value: T | undefined;
  await waitUntil(async () => Boolean((value = await probe())), `timed out after ${timeout} ms waiting for ${what}`, { timeout, interval });
  return value as NonNullable<T>;
}

/**
 * One task of the page's event loop later: a message to itself, never a timer, since a chain of zero timers is
 * slowed to 4 ms a link, and Firefox ran a background test tab's timers once a second.
 */
export function nextTurn(): Promise<void> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
