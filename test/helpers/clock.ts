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

interface Pending extends ClockTimer {
  due: number;
  order: number;
  every?: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  #time: number | undefined;
  /** The clock's time: fixed at the first read when it was made without a start (see the constructor). */
  private get time(): number {
    return (this.#time ??= Date.now());
  }
  private set time(value: number) {
    this.#time = value;
  }
  private pending = new Set<Pending>();
  private made = 0;

  /**
   * Starts at `start`, or by default at the real time when it is first read, so that the dates the service
   * writes look like today's: a clock made when its file loads (a describe's body) may be read minutes later,
   * when the gate runs many files in one process.
   */
  constructor(start?: Date | number) {
    if (start !== undefined) this.time = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.add(callback, ms);
  }

  setInterval(callback: () => void, ms: number): ClockTimer {
    return this.add(callback, ms, Math.max(1, ms));
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer) this.pending.delete(timer as Pending);
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
    return this.pending.size;
  }

  /**
   * Moves the time `ms` forward, running each timer that falls due on the way at its own time (earliest
   * first; timers a callback starts run too if they fall due within `ms`), with a drain after each.
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await this.drain();
    for (let next = this.earliest(); next && next.due <= end; next = this.earliest()) {
      this.time = Math.max(this.time, next.due);
      if (next.every) next.due += next.every;
      else this.pending.delete(next);
      next.callback();
      await this.drain();
    }
    this.time = end;
    await this.drain();
  }

  /**
   * Moves the time `ms` forward at once, as an event loop busy all that while would: each timer that fell
   * due on the way runs once, at the end (earliest due first; an interval then goes on from there), with
   * a drain after each. For long stretches where only the end matters: advance(60_000) runs a 250 ms
   * poll 240 times, each one a query.
   */
  async leap(ms: number): Promise<void> {
    const end = this.time + ms;
    await this.drain();
    this.time = end;
    const due = [...this.pending].filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.order - b.order);
    for (const timer of due) {
      if (!this.pending.has(timer)) continue; // cleared by a callback before it
      if (timer.every) timer.due = end + timer.every;
      else this.pending.delete(timer);
      timer.callback();
      await this.drain();
    }
    await this.drain();
  }

  /**
   * Lets the work already started settle without moving time: a few turns of the event loop, enough for
   * promise chains and in-memory I/O (PGlite) a timer started. Work that waits on real I/O elsewhere (a
   * callback over HTTP) is waited for with waitFor (test/helpers/wait-for.ts).
   */
  async drain(turns = 10): Promise<void> {
    for (let i = 0; i < turns; i++) await nextTurn();
  }

  private add(callback: () => void, ms: number, every?: number): Pending {
    const timer: Pending = { due: this.time + Math.max(0, ms), order: this.made++, every, callback, unref: () => timer };
    this.pending.add(timer);
    return timer;
  }

  private earliest(): Pending | undefined {
    let first: Pending | undefined;
    for (const t of this.pending) if (!first || t.due < first.due || (t.due === first.due && t.order < first.order)) first = t;
    return first;
  }
}

/** The real clock and timers with now() moved by `offsetMs()` (read at each call). */
export function shiftedClock(offsetMs: () => number): Clock {
  return { ...systemClock, now: () => new Date(Date.now() + offsetMs()) };
}
