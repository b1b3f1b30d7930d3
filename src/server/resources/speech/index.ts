import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const speechModule: ResourceModule = { name: 'speech' };
