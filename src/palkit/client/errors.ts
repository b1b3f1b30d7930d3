// Typed failures of the browser runtime. Every failure carries a stable `code` that pages can switch on;
// `message` is for people and never contains secrets.
import type { StartErrorCode } from '../../protocol/public.js';

export type PalErrorCode =
  | StartErrorCode
  | 'network_error' // fetch rejected (offline, DNS, CORS)
  | 'bad_response' // not JSON, or JSON not in the contracted shape
  | 'http_error' // an unexpected status without a known code
  | 'rate_limited' // 429 without a more specific code
  | 'conversation_ended' // canvas interaction after the end
  | 'aborted' // cancelled by endConversation() or element removal
  | 'join_failed' // the room refused or could not be reached
  | 'connection_lost' // the room went away during the call
  | 'media_denied' // camera/microphone permission refused
  | 'captcha_unavailable' // the bot check could not run
  | 'not_connected' // a call-only method used outside a call
  | 'no_deployment' // a deployment element without deployment-id, or a method used without one
  | 'invalid_deployment_id' // the service refused the deployment-id as malformed (400 on init)
  | 'invalid_attribute' // an attribute the element cannot use (malformed JSON, not an address)
  | 'face_unavailable'; // a trained face's rig did not load: the call goes on with its still image

export class PalClientError extends Error {
  override readonly name = 'PalClientError';
  constructor(
    readonly code: PalErrorCode,
    message: string,
    /** HTTP status when the failure came from a response. */
    readonly status?: number,
    /** Seconds from a Retry-After header, when the service sent one. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof PalClientError && error.code === 'aborted';
}

/** Any thrown value as a PalClientError (unknown failures keep their message under a generic code). */
export function toClientError(error: unknown, fallback: PalErrorCode = 'join_failed'): PalClientError {
  if (error instanceof PalClientError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') return new PalClientError('aborted', 'Cancelled.');
  if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError'))
    return new PalClientError('media_denied', 'Camera or microphone access was refused.');
  const message = error instanceof Error ? error.message : String(error);
  return new PalClientError(fallback, message || 'Something went wrong.');
}
