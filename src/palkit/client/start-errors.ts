// What a failed start (or init) means for the visitor: back to the gate (wrong password, failed captcha), the
// unavailable screen (inactive deployment, limits, a bot check that cannot run), or the error screen.
import type { UnavailableReason } from '../../protocol/public.js';
import { PalClientError, type PalErrorCode } from './errors.js';

export type GateStep = 'password' | 'captcha';

const GATE: Partial<Record<string, GateStep>> = {
  invalid_password: 'password',
  password_required: 'password',
  too_many_attempts: 'password',
  captcha_failed: 'captcha',
  captcha_required: 'captcha',
};

const UNAVAILABLE: Partial<Record<string, UnavailableReason | 'captcha'>> = {
  deployment_inactive: 'inactive',
  daily_limit: 'daily_limit',
  total_limit: 'total_limit',
  busy: 'busy',
  captcha_unavailable: 'captcha',
  // The front door's limits and a database away: nothing the visitor can fix but waiting.
  too_many_starts: 'busy',
  too_many_unjoined: 'busy',
  service_unavailable: 'busy',
};

export type StartOutcome =
  { kind: 'gate'; step: GateStep } | { kind: 'unavailable'; reason: UnavailableReason | 'captcha' } | { kind: 'error' };

export function startOutcome(code: string): StartOutcome {
  const step = GATE[code];
  if (step) return { kind: 'gate', step };
  const reason = UNAVAILABLE[code];
  return reason ? { kind: 'unavailable', reason } : { kind: 'error' };
}

/** The error code a refused start carries for each reason init gives (so a page hears the same code either way). */
export function unavailableCode(reason: UnavailableReason): PalErrorCode {
  const codes: Record<UnavailableReason, PalErrorCode> = {
    inactive: 'deployment_inactive',
    daily_limit: 'daily_limit',
    total_limit: 'total_limit',
    busy: 'busy',
  };
  return codes[reason];
}

/** A 400 on init is the page's mistake, not the service's: the deployment id is malformed, and a retry cannot help. */
export function initError(error: PalClientError, deploymentId: string): PalClientError {
  if (error.status !== 400) return error;
  return new PalClientError('invalid_deployment_id', `deployment-id "${deploymentId.slice(0, 80)}" is malformed (${error.message}).`, 400);
}
