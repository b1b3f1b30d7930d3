// Spaces out requests to one host: one request at a time, and the next starts `delayMs` after the
// previous one finished (so a slow server is never hit harder, whatever the crawl's concurrency). The gap is
// waited for on the service's clock.
import type { Clock } from '../../../platform/time.js';

export class Politeness {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(
    private readonly delayMs: (host: string) => number,
    private readonly clock: Pick<Clock, 'sleep'>,
  ) {}

  /** Waits for the host's turn; call the returned release once the response has been read. */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    if (this.delayMs(host) <= 0) return () => undefined; // no delay asked: the crawl's own concurrency applies
    const previous = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const finished = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(
      host,
      finished.then(() => this.clock.sleep(this.delayMs(host))),
    );
    await (signal ? Promise.race([previous, aborted(signal)]) : previous);
    return release;
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
