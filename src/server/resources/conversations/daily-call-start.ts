// A Daily room, once open, gets its deadlines and its PAL from the runner: live's work
// (live/runner/start-daily-call.ts), while conversations are created here, a layer below. So the step is
// handed down: app/service.ts gives each service's deps its start, kept beside those deps (no
// module-level singleton), and createConversation calls it.
import type { ServiceDeps } from '../../platform/context.js';
import { ApiError } from '../../platform/http/errors.js';

/** The start's answer (503): the code the elements turn into a visible message and a `pal-error`. */
export const PAL_UNAVAILABLE_ERROR = 'pal_unavailable: the PAL could not join the call; please try again later';

/** The runner refused or could not be reached: the conversation was ended and the start must fail. */
export class PalUnavailableError extends Error {}

/**
 * The PAL picks a runner (layers.daily.runner) this service does not have: the conversation is withdrawn
 * as if it never was (no callbacks), and the start answers 503 pal_unavailable.
 */
export class PalRunnerMissingError extends PalUnavailableError {}

/** How long a start refused for a full runner is asked to wait before trying again. */
export const RUNNER_BUSY_RETRY_SECONDS = 30;

/**
 * This instance already runs as many Daily PALs as it may (PALKIT_DAILY_RUNNER_PAGES): 429 `busy`, and the
 * conversation is withdrawn as if it never was (no callbacks, its deployment's slot given back).
 */
export class RunnerBusyError extends ApiError {
  constructor(pages: number) {
    super(429, `busy: this service already runs ${pages} Daily conversations with a PAL; try again shortly`, {
      'Retry-After': String(RUNNER_BUSY_RETRY_SECONDS),
    });
  }
}

export interface DailyCall {
  conversationId: string;
  /** The room's address and Daily's name for it (null when Daily gave none). */
  room: { url: string; name: string | null };
  properties: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Schedules the call's deadlines and hands it to the PAL runner; throws PalUnavailableError when the runner
 * refuses, RunnerBusyError (before anything is scheduled) when palkit's own runner is full.
 */
export type DailyCallStart = (deps: ServiceDeps, call: DailyCall) => Promise<void>;

const starts = new WeakMap<ServiceDeps, DailyCallStart>();

export function setDailyCallStart(deps: ServiceDeps, start: DailyCallStart): void {
  starts.set(deps, start);
}

export function dailyCallStart(deps: ServiceDeps): DailyCallStart {
  const start = starts.get(deps);
  if (!start) throw new Error('no Daily call start for these deps: app/service.ts sets one');
  return start;
}
