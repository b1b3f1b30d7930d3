// Spaces out requests to one host: each request takes the next free slot `delayMs` after the last.
export class Politeness {
  private readonly nextSlot = new Map<string, number>();

  constructor(private readonly delayMs: (host: string) => number) {}

  async wait(host: string, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextSlot.get(host) ?? 0);
    this.nextSlot.set(host, at + this.delayMs(host));
    if (at > now) await sleep(at - now, signal);
  }
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
