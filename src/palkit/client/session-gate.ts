// The gate before a start: the password and captcha steps, what the visitor answered on them, and the pass
// the service gives for a right password (it stands in for the password and the captcha at start).
import type { GateBody, GatePass, InitResponse, StartBody } from '../../protocol/public.js';
import { PalClientError, toClientError } from './errors.js';
import { startOutcome, type GateStep } from './start-errors.js';
import type { VisitorStep } from './visitor-step.js';

/** The session the gate belongs to: told when the gate changes, and of a wrong answer. */
export interface GateHost {
  changed(): void;
  report(error: PalClientError): void;
}

export type CheckGate = (body: GateBody) => Promise<GatePass>;

export class SessionGate {
  /** The step on view, or null. */
  step: GateStep | null = null;
  /** Why the last answer failed (the start endpoint's code), shown on the step. */
  error: PalClientError | null = null;
  /** The password step's answer is being checked with the service. */
  checking = false;
  #password: string | undefined;
  #captchaToken: string | undefined;
  #pass: string | undefined;
  readonly #visitor: VisitorStep;
  readonly #host: GateHost;

  constructor(visitor: VisitorStep, host: GateHost) {
    this.#visitor = visitor;
    this.#host = host;
  }

  answerPassword(password: string, captchaToken?: string): void {
    this.#password = password;
    if (captchaToken !== undefined) this.#captchaToken = captchaToken;
  }

  answerCaptcha(token: string): void {
    this.#captchaToken = token;
  }

  /** Asks for the deployment's steps until they pass: a password is checked at once, so a wrong one is said on its step. */
  async pass(deployment: InitResponse | null, check: CheckGate): Promise<void> {
    if (deployment?.has_password) {
      while (this.#pass === undefined) {
        await this.#ask('password');
        await this.#check(check);
      }
    } else {
      while (deployment?.captcha && this.#captchaToken === undefined) await this.#ask('captcha');
    }
    this.step = null;
  }

  /** What the start sends of the gate: the pass, and the captcha token, which is single-use (the next start needs a fresh one). */
  takeStartFields(): Pick<StartBody, 'gate_pass' | 'captcha_token'> {
    const fields = {
      ...(this.#pass !== undefined ? { gate_pass: this.#pass } : {}),
      ...(this.#captchaToken !== undefined ? { captcha_token: this.#captchaToken } : {}),
    };
    this.#captchaToken = undefined;
    return fields;
  }

  /** The pass ran out (or the password changed): the visitor enters the password again. */
  forgetPass(): void {
    this.#pass = undefined;
  }

  async #ask(step: GateStep): Promise<void> {
    this.step = step;
    this.#host.changed();
    await this.#visitor.waitFor(step);
  }

  async #check(check: CheckGate): Promise<void> {
    const body: GateBody = { password: this.#password, ...(this.#captchaToken !== undefined ? { captcha_token: this.#captchaToken } : {}) };
    // Each answer is used once: a wrong password needs another, and a captcha token is single-use.
    this.#password = undefined;
    this.#captchaToken = undefined;
    this.checking = true;
    this.#host.changed();
    try {
      this.#pass = (await check(body)).gate_pass;
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
