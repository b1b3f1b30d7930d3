// The steps a deployment may put before its call: a captcha, and a password that is checked with the
// service at once (so a wrong one is said on the password step), whose answer is a gate pass standing in
// for both at start. Every answer is used once: a wrong password needs another, a captcha token is
// single-use.
import type { GateBody, InitResponse, StartBody } from '../../protocol/public.js';
import { toClientError, type PalClientError } from './errors.js';
import { startOutcome, type GateStep } from './start-errors.js';

export interface GateHost {
  /** Resolves when the visitor has answered the step on view (rejects when the start is cancelled). */
  waitFor(step: GateStep): Promise<void>;
  /** The service's gate pass for these answers; rejects with the start endpoint's codes. */
  check(body: GateBody): Promise<string>;
  changed(): void;
  report(error: PalClientError): void;
}

export class Gate {
  /** The step on view, or null. */
  step: GateStep | null = null;
  /** Why the last attempt failed (code of the start endpoint), shown on the step. */
  error: PalClientError | null = null;
  /** The password step's answer is being checked with the service. */
  checking = false;

  readonly #host: GateHost;
  #password: string | undefined;
  #captchaToken: string | undefined;
  #pass: string | undefined;

  constructor(host: GateHost) {
    this.#host = host;
  }

  /** The password step's answer, with the captcha token when the deployment has a captcha. */
  answerPassword(password: string, captchaToken?: string): void {
    this.#password = password;
    if (captchaToken !== undefined) this.#captchaToken = captchaToken;
  }

  answerCaptcha(token: string): void {
    this.#captchaToken = token;
  }

  /** Asks for each step the deployment has until it is passed. */
  async pass(deployment: InitResponse | null): Promise<void> {
    if (deployment?.has_password) {
      while (this.#pass === undefined) {
        await this.#ask('password');
        await this.#check();
      }
    } else {
      while (deployment?.captcha && this.#captchaToken === undefined) await this.#ask('captcha');
    }
    this.step = null;
  }

  /** What a start request carries of the gate; its captcha token is used up, so a next attempt needs a new one. */
  takeStartFields(): Pick<StartBody, 'gate_pass' | 'captcha_token'> {
    const fields = {
      ...(this.#pass !== undefined ? { gate_pass: this.#pass } : {}),
      ...(this.#captchaToken !== undefined ? { captcha_token: this.#captchaToken } : {}),
    };
    this.#captchaToken = undefined;
    return fields;
  }

  /** The service refused the pass (it ran out, or the password changed): the visitor enters it again. */
  forgetPass(): void {
    this.#pass = undefined;
  }

  async #ask(step: GateStep): Promise<void> {
    this.step = step;
    this.#host.changed();
    await this.#host.waitFor(step);
  }

  async #check(): Promise<void> {
    const body: GateBody = { password: this.#password, ...(this.#captchaToken !== undefined ? { captcha_token: this.#captchaToken } : {}) };
    this.#password = undefined;
    this.#captchaToken = undefined;
    this.checking = true;
    this.#host.changed();
    try {
      this.#pass = await this.#host.check(body);
      this.error = null;
    } catch (raw) {
      const error = toClientError(raw);
      if (startOutcome(error.code).kind !== 'gate') throw error;
      this.error = error;
      this.#host.report(error);
    } finally {
      this.checking = false;
      this.#host.changed();
    }
  }
}
