// The one test clock's core, for both runtimes: test/helpers/clock.ts (the service's Clock) and
// test/browser/helpers/test-clock.ts (the client's Timers) are its two faces. Nothing it holds runs until
// the test calls advance(ms) or leap(ms); `turn` is one turn of the runtime's event loop, for drain().
// No Node or DOM import here: web-test-runner bundles it for the pages.

export interface QueuedTimer {
  due: number;
  order: number;
  every?: number;
  callback: () => void;
}

export class TimerQueue {
  #time: number | undefined;
  readonly #pending = new Set<QueuedTimer>();
  #made = 0;

  /** `start` undefined: the real time when first read (see ManualClock). */
  constructor(
    private readonly turn: () => Promise<void>,
    private readonly turns: number,
    start?: number,
  ) {
    this.#time = start;
  }

  get time(): number {
    return (this.#time ??= Date.now());
  }

  /** How many timers wait (intervals included). */
  get size(): number {
    return this.#pending.size;
  }

  add(callback: () => void, ms: number, every?: number): QueuedTimer {
    const timer: QueuedTimer = { due: this.time + Math.max(0, ms), order: this.#made++, callback, ...(every ? { every } : {}) };
    this.#pending.add(timer);
    return timer;
  }

  clear(timer: QueuedTimer | undefined): void {
    if (timer) this.#pending.delete(timer);
  }

  /**
   * Moves the time `ms` forward, running each timer that falls due on the way at its own time (earliest
   * first; timers a callback starts run too if they fall due within `ms`), with a drain after each.
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await this.drain();
    for (let next = this.#earliest(); next && next.due <= end; next = this.#earliest()) {
      this.#time = Math.max(this.time, next.due);
      if (next.every) next.due += next.every;
      else this.#pending.delete(next);
      next.callback();
      await this.drain();
    }
    this.#time = end;
    await this.drain();
  }

  /**
   * Moves the time `ms` forward at once, as an event loop busy all that while would: each timer that fell
   * due on the way runs once, at the end (earliest due first; an interval then goes on from there), with
   * a drain after each. For long stretches where only the end matters.
   */
  async leap(ms: number): Promise<void> {
    const end = this.time + ms;
    await this.drain();
    this.#time = end;
    const due = [...this.#pending].filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.order - b.order);
    for (const timer of due) {
      if (!this.#pending.has(timer)) continue; // cleared by a callback before it
      if (timer.every) timer.due = end + timer.every;
      else this.#pending.delete(timer);
      timer.callback();
      await this.drain();
    }
    await this.drain();
  }

  /** Lets the work already started settle without moving time: a few turns of the event loop. */
  async drain(turns = this.turns): Promise<void> {
    for (let i = 0; i < turns; i++) await this.turn();
  }

  #earliest(): QueuedTimer | undefined {
    let first: QueuedTimer | undefined;
    for (const t of this.#pending) if (!first || t.due < first.due || (t.due === first.due && t.order < first.order)) first = t;
    return first;
  }
}
