// The transcript panel's scroller, watched for a change of size. Text wraps differently at another width, so
// measured row heights hold for one width only; at another height (a card under the open chat takes rows of
// it) the rows in view change, and a panel following the newest message scrolls to it again (transcript.ts).

export class ScrollerSize {
  #observer?: ResizeObserver;
  #width = 0;
  #height = 0;
  readonly #changed: (widthChanged: boolean) => void;

  /** `changed` hears each change of the rounded size, and whether the width was part of it. */
  constructor(changed: (widthChanged: boolean) => void) {
    this.#changed = changed;
  }

  /** Starts watching `scroller` (once, until stop(); nothing where ResizeObserver is missing). */
  watch(scroller: Element | null | undefined): void {
    if (this.#observer || typeof ResizeObserver === 'undefined') return;
    this.#observer = new ResizeObserver(([entry]) => {
      const width = Math.round(entry?.contentRect.width ?? 0);
      const height = Math.round(entry?.contentRect.height ?? 0);
      if (width === this.#width && height === this.#height) return;
      const widthChanged = width !== this.#width;
      this.#width = width;
      this.#height = height;
      this.#changed(widthChanged);
    });
    if (scroller) this.#observer.observe(scroller);
  }

  stop(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }
}
