import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../context.js';

export interface AppEnv {
  Variables: {
    deps: ServiceDeps;
    /** Set by requireOwner on keyed routes. */
    ownerId: number;
    /** Set by the request-id middleware (ops/http.ts) on every request. */
    requestId: string;
  };
}

export type ApiApp = OpenAPIHono<AppEnv>;
