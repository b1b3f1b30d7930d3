import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const connectorsModule: ResourceModule = { name: 'connectors' };
