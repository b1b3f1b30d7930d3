import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const guardrailsModule: ResourceModule = { name: 'guardrails' };
