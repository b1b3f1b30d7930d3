// Time under the test's control. A service started with `startTestService(env, { clock })` reads the time
// and runs its timers on the clock it is given (ServiceDeps.clock, src/server/platform/time.ts):
//   - ManualClock: nothing happens until the test calls advance(ms), which moves the time forward and runs
//     every timer due on the way, in order, letting each one's promise work settle before the next; drain()
//     lets the work a timer started finish without moving time (for "nothing happened" checks); leap(ms)
//     moves it at once, each timer due on the way run once at the end (a long stretch of polls skipped);
//   - shiftedClock(): the real clock and timers, with now() moved by an offset the test sets (the calendar
//     jumps an hour; the timers keep real time).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { abortReason, systemClock, type Clock, type ClockTimer } from '../../src/server/platform/time.js';
import { TimerQueue, type QueuedTimer } from '../shared/timer-queue.js';

type Pending = QueuedTimer & ClockTimer;

export class ManualClock implements Clock {
  readonly #queue: TimerQueue;

  /**
   * Starts at `start`, or by default at the real time when it is first read, so that the dates the service
   * writes look like today's: a clock made when its file loads (a describe's body) may be read minutes later,
   * when the gate runs many files in one process.
   */
  constructor(start?: Date | number) {
    // Ten turns: enough for promise chains and in-memory I/O (PGlite) a timer started.
    this.#queue = new TimerQueue(() => nextTurn(), 10, start === undefined ? undefined : Number(start));
  }

  now(): Date {
    return new Date(this.#queue.time);
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.#add(callback, ms);
  }

  setInterval(callback: () => void, ms: number): ClockTimer {
    return this.#add(callback, ms, Math.max(1, ms));
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    this.#queue.clear(timer as Pending | undefined);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        this.clearTimeout(timer);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** How many timers wait (intervals included). */
  get timers(): number {
    return this.#queue.size;
  }

  /** Moves the time `ms` forward, running each timer due on the way at its own time (TimerQueue.advance). */
  advance(ms: number): Promise<void> {
    return this.#queue.advance(ms);
  }

  /** Moves the time `ms` forward at once, each timer due on the way run once at the end (TimerQueue.leap): advance(60_000) would run a 250 ms poll 240 times. */
  leap(ms: number): Promise<void> {
    return this.#queue.leap(ms);
  }

  /**
   * Lets the work already started settle without moving time. Work that waits on real I/O elsewhere (a
   * callback over HTTP) is waited for with waitFor (test/helpers/wait-for.ts).
   */
  drain(turns?: number): Promise<void> {
    return this.#queue.drain(turns);
  }

  #add(callback: () => void, ms: number, every?: number): Pending {
    const timer = this.#queue.add(callback, ms, every) as Pending;
    timer.unref = () => timer;
    return timer;
  }
}

/** The real clock and timers with now() moved by `offsetMs()` (read at each call). */
export function shiftedClock(offsetMs: () => number): Clock {
  return { ...systemClock, now: () => new Date(Date.now() + offsetMs()) };
}
