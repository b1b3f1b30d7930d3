// The browser tests' twin of test/helpers/clock.ts: a clock for the client's parts that wait (the Timers they
// take, src/palkit/client/timers.ts). Nothing it holds runs until the test calls advance(ms), which moves the
// time forward and runs each timer due on the way, in order, letting the work each one started settle
// before the next; drain() lets started work settle without moving time (for "nothing happened" checks).
import type { TimerHandle, Timers } from '../../../src/palkit/client/timers.js';
import { nextTurn } from './wait-for.js';

interface Pending {
  due: number;
  order: number;
  every?: number;
  callback: () => void;
}

export class TestClock implements Timers {
  #time: number;
  #pending = new Set<Pending>();
  #made = 0;

  constructor(start = Date.now()) {
    this.#time = start;
  }

  now(): number {
    return this.#time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    return this.#add(callback, ms);
  }

  setInterval(callback: () => void, ms: number): TimerHandle {
    return this.#add(callback, ms, Math.max(1, ms));
  }

  clear(handle: TimerHandle | undefined): void {
    this.#pending.delete(handle as Pending);
  }

  /** How many timers wait (intervals included). */
  get timers(): number {
    return this.#pending.size;
  }

  /** Moves the time `ms` forward, running each timer that falls due on the way at its own time, with a drain after each. */
  async advance(ms: number): Promise<void> {
    const end = this.#time + ms;
    await this.drain();
    for (let next = this.#earliest(); next && next.due <= end; next = this.#earliest()) {
      this.#time = Math.max(this.#time, next.due);
      if (next.every) next.due += next.every;
      else this.#pending.delete(next);
      next.callback();
      await this.drain();
    }
    this.#time = end;
    await this.drain();
  }

  /**
   * A few turns of the page's event loop: enough for promise chains. Message turns, never timers: a chain of
   * zero timers is slowed to 4 ms a link, and in Firefox's test pages here one zero timer per drain made the
   * listener's restart test take 3.2 s (46 ms without). A stand-in's own timer (a socket opening) is waited
   * for with waitFor.
   */
  async drain(turns = 5): Promise<void> {
    for (let i = 0; i < turns; i++) await nextTurn();
  }

  #add(callback: () => void, ms: number, every?: number): Pending {
    const timer: Pending = { due: this.#time + Math.max(0, ms), order: this.#made++, callback, ...(every ? { every } : {}) };
    this.#pending.add(timer);
    return timer;
  }

  #earliest(): Pending | undefined {
    let first: Pending | undefined;
    for (const t of this.#pending) if (!first || t.due < first.due || (t.due === first.due && t.order < first.order)) first = t;
    return first;
  }
}
