// Cloudflare Turnstile: active when the deployment enables it and the service has a site key; tokens
// are checked server-side at the siteverify endpoint (form fields secret, response, remoteip).
import type { ServiceDeps } from '../../platform/context.js';
import { refuse } from './refusals.js';
import type { Limits } from './schemas.js';

export function captchaFor(config: ServiceDeps['config'], limits: Limits): { provider: 'turnstile'; site_key: string } | null {
  return limits.captcha_enabled && config.turnstile.siteKey ? { provider: 'turnstile', site_key: config.turnstile.siteKey } : null;
}

/** 403 captcha_required without a token, 403 captcha_failed when Cloudflare (or the network) says no. */
export async function verifyCaptcha(
  deps: Pick<ServiceDeps, 'config' | 'fetch' | 'log'>,
  token: string | undefined,
  remoteIp: string | null,
): Promise<void> {
  if (!token) throw refuse('captcha_required');
  const { secret, verifyUrl } = deps.config.turnstile;
  if (!secret) {
    deps.log.error('captcha is enabled but PALKIT_TURNSTILE_SECRET is not set; refusing starts');
    throw refuse('captcha_failed');
  }
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);
  type SiteVerify = { success?: unknown; 'error-codes'?: unknown };
  let outcome: SiteVerify | null = null;
  try {
    const response = await deps.fetch(verifyUrl, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
    });
    if (response.ok) outcome = (await response.json()) as SiteVerify;
  } catch (error) {
    deps.log.error('captcha verification unreachable', { error: error instanceof Error ? error.message : String(error) });
  }
  if (outcome?.success !== true) throw refuse('captcha_failed');
}
