// Security headers for every HTML page the service serves (landing pages, rooms, /docs, the demo),
// following the hosted video page: a Content-Security-Policy, nosniff, no framing by other sites.
// Inline scripts are allowed by their sha256 hash, computed from the page itself, so pages need no
// nonce plumbing and nothing else inline can run. blob: is allowed for scripts and workers (the
// AudioWorklet is loaded from a blob: URL) and media (blob:, mediastream:); connect-src admits the
// room's WebSocket on the same origin; *.daily.co is admitted for the daily transport's call bundle and
// its signalling, Cloudflare's Turnstile for the captcha step, and https frames for the scheduling card
// (a booking page at a public https address the PAL names).
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/http/app-env.js';

const DAILY = 'https://*.daily.co';
const TURNSTILE = 'https://challenges.cloudflare.com';
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

export function pagePolicy(html: string, requestUrl: string): string {
  const { host, protocol } = new URL(requestUrl);
  const ws = `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`;
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' blob: ${DAILY} ${TURNSTILE} ${hashes.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: mediastream: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${ws} ${DAILY} wss://*.daily.co`,
    `frame-src ${DAILY} ${TURNSTILE} https:`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('x-content-type-options', 'nosniff');
  if (!/^text\/html/i.test(c.res.headers.get('content-type') ?? '')) return;
  if (!c.res.headers.has('x-frame-options')) c.res.headers.set('x-frame-options', 'DENY');
  if (c.res.headers.has('content-security-policy')) return; // the page set its own (the hosted video page)
  const html = await c.res.clone().text();
  c.res.headers.set('content-security-policy', pagePolicy(html, c.req.url));
};
