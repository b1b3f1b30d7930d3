// The one thing a session may be waiting for from the visitor (a password, a captcha, the device check):
// a promise that the matching answer resolves and a cancel rejects.
import { PalClientError } from './errors.js';

export type VisitorStepName = 'password' | 'captcha' | 'haircheck';

export class VisitorStep {
  #pending: { step: VisitorStepName; resolve: () => void; reject: (error: unknown) => void } | null = null;

  /** Waits for `step`; a step already pending is cancelled. */
  waitFor(step: VisitorStepName): Promise<void> {
    this.cancel();
    return new Promise((resolve, reject) => (this.#pending = { step, resolve, reject }));
  }

  /** Answers `step` when it is the one pending; returns whether it was. */
  resume(step: VisitorStepName): boolean {
    if (this.#pending?.step !== step) return false;
    const { resolve } = this.#pending;
    this.#pending = null;
    resolve();
    return true;
  }

  fail(error: PalClientError): void {
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(error);
  }

  cancel(): void {
    this.fail(new PalClientError('aborted', 'Cancelled.'));
  }
}
