import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../context.js';

export interface AppEnv {
  Variables: {
    deps: ServiceDeps;
    /** Set by requireOwner on keyed routes. */
    ownerId: number;
  };
}

export type ApiApp = OpenAPIHono<AppEnv>;
