// Typed errors mapped to the spec's bodies: `error` for 400/403/404/409/412/413/429/503, `message` for 401.
import type { ZodError } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 429 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): { error: string } | { message: string } {
    return this.status === 401 ? { message: this.message } : { error: this.message };
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Invalid access token') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new ApiError(429, message, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** "invalid_request: name: Required; limits.max_call_duration: Expected number" */
export function describeZodError(error: ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  return `invalid_request: ${parts.join('; ')}`;
}
