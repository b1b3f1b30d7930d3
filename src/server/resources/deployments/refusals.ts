// The start endpoint's refusals. Every code is one the elements know (StartErrorCode in
// src/protocol/public.ts): the table must name each code once, so a code added on either side
// without the other fails the type check.
import type { StartErrorCode } from '../../../protocol/public.js';
import { ApiError } from '../../platform/http/errors.js';

export const START_REFUSAL_STATUS = {
  invalid_request: 400,
  deployment_not_found: 404,
  deployment_inactive: 403,
  origin_not_allowed: 403,
  password_required: 403,
  invalid_password: 403,
  too_many_attempts: 429,
  captcha_required: 403,
  captcha_failed: 403,
  daily_limit: 429,
  total_limit: 429,
  busy: 429,
  preview_requires_owner_key: 403,
  consent_required: 403,
  conferencing_unavailable: 502,
  pal_unavailable: 503,
  too_many_starts: 429,
  too_many_unjoined: 429,
  service_unavailable: 503,
} as const satisfies Record<StartErrorCode, number>;

type Refusal = { [C in StartErrorCode]: (typeof START_REFUSAL_STATUS)[C] extends ApiError['status'] ? C : never }[StartErrorCode];

/** A start refusal: `{error: code}`, or `{error: "code: detail"}` with a detail. */
export function refuse(code: Refusal, detail?: string, retryAfterSeconds?: number): ApiError {
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  return new ApiError(START_REFUSAL_STATUS[code], detail ? `${code}: ${detail}` : code, headers);
}

/** The codes answered with `status`, for the OpenAPI document. */
export function codesWithStatus(status: number): string {
  return (Object.keys(START_REFUSAL_STATUS) as StartErrorCode[])
    .filter((c) => START_REFUSAL_STATUS[c] === status)
    .map((c) => `\`${c}\``)
    .join(', ');
}
