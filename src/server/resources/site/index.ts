import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const siteModule: ResourceModule = { name: 'site' };
