import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const facesModule: ResourceModule = { name: 'faces' };
