// The timestamp forms the spec asks for, in one place.

/** ISO 8601 with milliseconds and Z: 2026-11-21T05:30:00.123Z (faces, documents, deployments). */
export function isoMillis(d: Date): string {
  return d.toISOString();
}

/** ISO 8601 with microseconds and a zone offset: 2026-11-21T05:30:00.123000+00:00 (skill attachments). */
export function isoMicros(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** YYYY-MM-DD HH:MM:SS in UTC (pinned memories). */
export function dateSpaceTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 with fractional seconds and no zone suffix (connectors). */
export function isoNoZone(d: Date): string {
  return d.toISOString().replace(/Z$/, '');
}

/** A timer a Clock started: unref() lets the process exit while it is pending (as Node's own timers). */
export interface ClockTimer {
  unref(): unknown;
}

/**
 * The service's time, from its dependencies (ServiceDeps.clock): the wall clock and the timers that wait on
 * it. The service reads the time and waits only through it, so that tests can run it on a clock they move
 * themselves (test/helpers/clock.ts, ManualClock.advance) instead of sleeping.
 */
export interface Clock {
  now(): Date;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  setInterval(callback: () => void, ms: number): ClockTimer;
  /** Stops a timer from either setTimeout or setInterval; undefined is ignored. */
  clearTimeout(timer: ClockTimer | undefined): void;
  /** Resolves after `ms`; rejects with the signal's reason (an AbortError unless told) when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout> | undefined),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * An AbortSignal that aborts after `ms` on `clock` with a TimeoutError, as AbortSignal.timeout() does on the
 * wall clock: a deadline that a test's clock moves (ManualClock.advance) like every other timer of the service.
 */
export function clockTimeout(clock: Clock, ms: number): AbortSignal {
  const controller = new AbortController();
  clock.setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms).unref();
  return controller.signal;
}

/** What a sleep cut short rejects with: the signal's reason, as fetch and node:timers/promises do. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
