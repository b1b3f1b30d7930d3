// The browser tests' face of the one test clock (test/shared/timer-queue.ts; the service's face is
// test/helpers/clock.ts): a clock for the client's parts that wait (the Timers they take,
// src/palkit/client/timers.ts). Nothing it holds runs until the test calls advance(ms); drain() lets started
// work settle without moving time (for "nothing happened" checks).
import type { TimerHandle, Timers } from '../../../src/palkit/client/timers.js';
import { TimerQueue, type QueuedTimer } from '../../shared/timer-queue.js';
import { nextTurn } from './wait-for.js';

export class TestClock implements Timers {
  /**
   * Five message turns a drain, never timers: a chain of zero timers is slowed to 4 ms a link, and in
   * Firefox's test pages here one zero timer per drain made the listener's restart test take 3.2 s (46 ms without).
   */
  readonly #queue: TimerQueue;

  constructor(start = Date.now()) {
    this.#queue = new TimerQueue(nextTurn, 5, start);
  }

  now(): number {
    return this.#queue.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    return this.#queue.add(callback, ms);
  }

  setInterval(callback: () => void, ms: number): TimerHandle {
    return this.#queue.add(callback, ms, Math.max(1, ms));
  }

  clear(handle: TimerHandle | undefined): void {
    this.#queue.clear(handle as QueuedTimer | undefined);
  }

  /** How many timers wait (intervals included). */
  get timers(): number {
    return this.#queue.size;
  }

  /** Moves the time `ms` forward, running each timer that falls due on the way at its own time, with a drain after each. */
  advance(ms: number): Promise<void> {
    return this.#queue.advance(ms);
  }

  /** Moves the time `ms` forward at once, as a page busy all that while: each timer due on the way runs once, at the end. */
  leap(ms: number): Promise<void> {
    return this.#queue.leap(ms);
  }

  /** Lets started work settle without moving time. A stand-in's own timer (a socket opening) is waited for with waitFor. */
  drain(turns?: number): Promise<void> {
    return this.#queue.drain(turns);
  }
}
