import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const deploymentsModule: ResourceModule = { name: 'deployments' };
