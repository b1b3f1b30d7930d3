// Spaces out requests to one host: one request at a time, and the next starts `delayMs` after the
// previous one finished (so a slow server is never hit harder, whatever the crawl's concurrency).
export class Politeness {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly delayMs: (host: string) => number) {}

  /** Waits for the host's turn; call the returned release once the response has been read. */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    if (this.delayMs(host) <= 0) return () => undefined; // no delay asked: the crawl's own concurrency applies
    const previous = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const finished = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(host, finished.then(() => sleep(this.delayMs(host))));
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
