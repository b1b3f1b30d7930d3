// The Start button's flow, from the preview to the room: the gate (password, captcha), the device check, the
// start request and the join, once per pass; a wrong password or a spent pass sends the visitor back to the
// gate for another. The session owns the states it moves through and the call the flow ends in.
import type { InitResponse, StartBody, StartResponse, UnavailableReason } from '../../protocol/public.js';
import { PalClientError, isAbort, toClientError } from './errors.js';
import type { SessionMode, SessionState } from './session-events.js';
import { SessionGate } from './session-gate.js';
import type { SessionOptions, SessionSettings } from './session-options.js';
import { startOutcome } from './start-errors.js';
import { VisitorStep, type VisitorStepName } from './visitor-step.js';

/** What the flow reads of the session. */
export interface StartSession {
  readonly deployment: InitResponse | null;
  readonly mode: SessionMode;
  readonly textMode: boolean;
  initialize(): Promise<void>;
}

/** What the flow does to the session: its states, the conversation it keeps, the call it joins. */
export interface StartHooks {
  /** The session's abort signal now (dispose and a cancelled start replace it). */
  signal(): AbortSignal;
  settings(): SessionSettings;
  setState(state: SessionState): void;
  setMode(mode: SessionMode): void;
  /** The service created the conversation. */
  created(conversation: StartResponse): void;
  /** Joins the session's conversation. */
  connect(): Promise<void>;
  /** Leaves and forgets the transport a failed join was using. */
  dropTransport(): void;
  unavailable(reason: UnavailableReason | 'captcha'): void;
  fail(error: PalClientError, report: boolean): void;
  changed(): void;
  report(error: PalClientError): void;
}

export class StartFlow {
  readonly visitor = new VisitorStep();
  readonly gate: SessionGate;
  /** A conversation is created (or known) and waits to be joined: the next start skips the gate and device check. */
  prepared = false;
  #starting: Promise<void> | null = null;
  #creating: Promise<StartResponse> | null = null;
  readonly #options: SessionOptions;
  readonly #session: StartSession;
  readonly #hooks: StartHooks;

  constructor(options: SessionOptions, session: StartSession, hooks: StartHooks) {
    this.#options = options;
    this.#session = session;
    this.#hooks = hooks;
    this.gate = new SessionGate(this.visitor, { changed: () => hooks.changed(), report: (error) => hooks.report(error) });
  }

  get starting(): boolean {
    return this.#starting !== null;
  }

  get creating(): boolean {
    return this.#creating !== null;
  }

  /** Runs the flow; the pass under way when there is one. Never rejects. */
  start(): Promise<void> {
    this.#starting ??= this.#run().finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** Joins the conversation the session was given; `signal` is the session's when it was asked. Never rejects. */
  join(signal: AbortSignal): Promise<void> {
    this.prepared = true;
    this.#starting ??= this.#hooks
      .connect()
      .catch((error) => void (signal.aborted || this.#failed(error)))
      .finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** After a reload, joins the call this tab was in; when it ended meanwhile, `gone` forgets it and the preview is back. */
  rejoin(gone: () => void): void {
    this.prepared = true;
    this.#starting = this.#hooks
      .connect()
      .catch((error) => {
        if (this.#hooks.signal().aborted || isAbort(toClientError(error))) return;
        gone();
        this.prepared = false;
        this.#hooks.setState('idle');
        this.#hooks.setMode('idle');
      })
      .finally(() => (this.#starting = null));
  }

  /** The visitor answered `step`; an answer clears the gate's last error. */
  resume(step: VisitorStepName): void {
    if (this.visitor.resume(step) && step !== 'haircheck') this.gate.error = null;
  }

  passGate(): Promise<void> {
    const { api, deploymentId } = this.#options;
    return this.gate.pass(this.#session.deployment, (body) => {
      if (!api || !deploymentId) throw new PalClientError('no_deployment', 'No deployment id was given.');
      return api.passGate(deploymentId, body, this.#hooks.signal());
    });
  }

  create(): Promise<StartResponse> {
    const { api, deploymentId } = this.#options;
    if (!api || !deploymentId) return Promise.reject(new PalClientError('no_deployment', 'No deployment id was given.'));
    const body: StartBody = { ...this.#hooks.settings().startBody(), ...this.gate.takeStartFields() };
    this.#creating = api
      .start(deploymentId, body, this.#hooks.signal())
      .then((created) => {
        this.#hooks.created(created);
        this.prepared = true;
        return created;
      })
      .finally(() => (this.#creating = null));
    return this.#creating;
  }

  async #run(): Promise<void> {
    const session = this.#session;
    const hooks = this.#hooks;
    const signal = hooks.signal();
    // Each pass runs the flow once; a wrong password or failed captcha sends the visitor back to the gate.
    for (;;) {
      try {
        if (!session.deployment && this.#options.deploymentId) await session.initialize();
        if (session.mode === 'unavailable' || !session.deployment) return;
        if (session.mode === 'ended') hooks.setMode('idle');
        if (!this.prepared) await this.passGate();
        if (hooks.settings().showHaircheck && !this.prepared && !session.textMode) {
          hooks.setMode('haircheck');
          await this.visitor.waitFor('haircheck');
        }
        if (!this.prepared) {
          hooks.setState('connecting');
          await (this.#creating ?? this.create());
        }
        await hooks.connect();
        return;
      } catch (error) {
        if (signal.aborted || this.#failed(error) === 'stop') return;
      }
    }
  }

  /** Shows what went wrong; 'retry' when the visitor is back at the gate and the flow continues. */
  #failed(raw: unknown): 'retry' | 'stop' {
    const error = toClientError(raw);
    if (isAbort(error)) return 'stop';
    const hooks = this.#hooks;
    hooks.dropTransport();
    const outcome = startOutcome(error.code);
    hooks.report(error);
    if (outcome.kind === 'gate' && this.#session.deployment) {
      // The pass ran out (or the password changed): the visitor enters it again.
      if (outcome.step === 'password') this.gate.forgetPass();
      this.gate.error = error;
      hooks.setState('idle');
      hooks.setMode('idle');
      return 'retry';
    }
    this.prepared = false;
    if (outcome.kind === 'unavailable') {
      hooks.setState('error');
      hooks.unavailable(outcome.reason);
    } else {
      hooks.fail(error, false);
    }
    return 'stop';
  }
}
