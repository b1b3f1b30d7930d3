// The HTTP app: one error handler, body limits, CORS for public routes, the OpenAPI document and its
// reference page, and every resource module's routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import type { ZodError } from 'zod';
import type { ServiceDeps } from '../context.js';
import type { ResourceModule } from '../resources/module.js';
import type { ApiApp, AppEnv } from './app-env.js';
import { ApiError } from './errors.js';
import { apiReferencePage } from './docs-page.js';
import { installOps } from '../ops/http.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** "invalid_request: name: Required; limits.max_call_duration: Expected number" */
export function describeZodError(error: ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  return `invalid_request: ${parts.join('; ')}`;
}

const NUL_REFUSED = 'invalid_request: text may not contain NUL characters';
/** A JSON `\u0000` escape that is not itself an escaped backslash followed by "u0000". */
const ESCAPED_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/** PostgreSQL text cannot hold NUL: refused in the path, the query and JSON bodies before anything reads them. */
const refuseNulCharacters: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname + url.search);
  } catch {
    return c.json({ error: 'invalid_request: the address is not valid percent-encoding' }, 400);
  }
  if (decoded.includes('\0')) return c.json({ error: NUL_REFUSED }, 400);
  if (/json/i.test(c.req.header('content-type') ?? '') && ESCAPED_NUL.test(await c.req.text())) return c.json({ error: NUL_REFUSED }, 400);
  await next();
};

export function createApp(deps: ServiceDeps, modules: ResourceModule[]): ApiApp {
  const app: ApiApp = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ error: describeZodError(result.error as ZodError) }, 400);
      return undefined;
    },
  });

  installOps(app, deps); // request ids, request logs and metrics wrap everything below; /readyz, /metrics
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use(
    '/v2/*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: `payload_too_large: bodies are limited to ${MAX_BODY_BYTES} bytes` }, 413, { connection: "close" }) }),
  );
  app.use('*', refuseNulCharacters);
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'x-api-key' });

  app.get('/healthz', (c) => c.json({ ok: true }));
  for (const module of modules) module.routes?.(app, deps);

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'palkit API',
      version: '2.0.0',
      description: 'Keyed REST API of the palkit companion service (PALs, faces, skills, deployments, conversations, documents, memory stores, guardrails, connectors, videos, speech) and the public endpoints the elements call.',
    },
    servers: [{ url: deps.config.publicUrl }],
  });
  app.get('/docs', (c) => c.html(apiReferencePage()));

  app.notFound((c) => c.json({ error: `not_found: no route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.body, error.status, error.headers);
    if (error instanceof HTTPException) {
      const status = error.status;
      const message = /json/i.test(error.message) ? 'malformed_json: the request body is not valid JSON' : error.message || 'bad_request';
      if (status === 401) return c.json({ message }, 401);
      return c.json({ error: message }, status);
    }
    deps.log.error('unhandled error', { request_id: c.get('requestId'), method: c.req.method, path: new URL(c.req.url).pathname, error: error instanceof Error ? error.message : String(error) });
    return c.json({ error: 'internal_error' }, 500);
  });
  return app;
}
