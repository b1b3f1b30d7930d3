// Route helpers: every keyed route gets the API-key middleware, its 401 response and the security
// requirement in the OpenAPI document from one place; public routes say so explicitly.
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { requireOwner } from './auth.js';

export const ErrorBody = z.object({ error: z.string() }).openapi('Error', { example: { error: 'invalid_request: name: Required' } });
export const UnauthorizedBody = z.object({ message: z.string() }).openapi('Unauthorized', { example: { message: 'Invalid access token' } });

const errorDescriptions: Record<number, string> = {
  400: 'Invalid request',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Gone',
  412: 'Precondition failed (stale ETag)',
  413: 'Body too large',
  429: 'Too many requests',
};

/** OpenAPI response entries for error statuses, all with the `{error}` body. */
export function errors<S extends number>(
  ...statuses: S[]
): Record<S, { description: string; content: { 'application/json': { schema: typeof ErrorBody } } }> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: errorDescriptions[s] ?? 'Error', content: { 'application/json': { schema: ErrorBody } } }]),
  ) as never;
}

/** A JSON response entry. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON request body entry (required). */
/** A body that needs one of these fields (a field and its alias): how the OpenAPI document says so. */
export function anyOfRequired(...fields: string[]): { anyOf: Array<{ required: string[] }> } {
  return { anyOf: fields.map((field) => ({ required: [field] })) };
}

export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { body: { required: true, description, content: { 'application/json': { schema } } } };
}

const unauthorized = { description: 'Missing or invalid API key', content: { 'application/json': { schema: UnauthorizedBody } } };

/** A route that needs `x-api-key`; handlers read the owner with `c.get('ownerId')`. */
export function keyedRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P }>(config: R) {
  const middleware = [requireOwner, ...asArray(config.middleware)] as MiddlewareHandler<AppEnv>[];
  return createRoute({
    ...config,
    security: [{ ApiKey: [] }],
    middleware,
    responses: { ...config.responses, 401: unauthorized },
  } as R & { responses: R['responses'] & { 401: typeof unauthorized } });
}

/** A route open to browsers without a key (deployment init/start, canvas interactions, OAuth redirect). */
export function publicRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P }>(config: R) {
  return createRoute({ ...config, security: [] });
}

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
