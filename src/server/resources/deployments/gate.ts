// The visitor's gate before a call: the captcha (when the deployment has one) and then the password
// (when it has one). The captcha comes first so every password guess costs a solved challenge; the
// password is checked under the address's lockout. A visitor who passes at the password step
// (POST …/gate) gets a gate pass, which lets the start skip both checks for a while: the captcha
// token is single-use, and the visitor should not type the password twice.
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';
import type { Secrets } from '../../platform/secrets.js';
import { verifyCaptcha, captchaFor } from './captcha.js';
import { clientAddress, clientKey } from './client-address.js';
import { clearPasswordFailures, reservePasswordAttempt } from './password-guard.js';
import { verifyPassword } from './password.js';
import { refuse } from './refusals.js';
import type { DeploymentRow } from './repository.js';
import type { Limits } from './schemas.js';

export const GATE_PASS_SECONDS = 15 * 60;

export interface GateAnswers {
  password?: string | null | undefined;
  captcha_token?: string | undefined;
}

type GatedDeployment = Pick<DeploymentRow, 'deployment_id' | 'password_hash' | 'limits'>;

/** Checks the captcha, then the password; throws the start refusal for the first that fails. */
export async function passGate(c: Context<AppEnv>, row: GatedDeployment, answers: GateAnswers): Promise<void> {
  const deps = c.get('deps');
  const address = clientAddress(c);
  if (captchaFor(deps.config, row.limits as Limits)) await verifyCaptcha(deps, answers.captcha_token, address);
  if (!row.password_hash) return;
  if (!answers.password) throw refuse('password_required');
  const visitor = clientKey(c, address);
  // Counted before the check, so parallel guesses cannot outrun the limit.
  await reservePasswordAttempt(deps.db, row.deployment_id, visitor, deps.clock.now(), (ms) => deps.clock.sleep(ms));
  if (!(await verifyPassword(answers.password, row.password_hash))) throw refuse('invalid_password');
  await clearPasswordFailures(deps.db, row.deployment_id, visitor);
}

// The pass names the deployment, its expiry and the password it was earned with (by its hash), so a
// changed password ends every pass given for the old one.
const passData = (row: GatedDeployment, expiry: number) => `${row.deployment_id}.${expiry}.${row.password_hash ?? ''}`;

export function signGatePass(secrets: Secrets, row: GatedDeployment, now: Date): { gate_pass: string; expires_at: string } {
  const expiry = Math.floor(now.getTime() / 1000) + GATE_PASS_SECONDS;
  return { gate_pass: `${expiry}.${secrets.sign('gate-pass', passData(row, expiry))}`, expires_at: new Date(expiry * 1000).toISOString() };
}

export function gatePassValid(secrets: Secrets, row: GatedDeployment, pass: string, now: Date): boolean {
  const [expiry, signature, extra] = pass.split('.');
  if (!expiry || !signature || extra !== undefined || !/^\d{1,12}$/.test(expiry)) return false;
  if (Number(expiry) * 1000 <= now.getTime()) return false;
  return secrets.verify('gate-pass', passData(row, Number(expiry)), signature);
}
