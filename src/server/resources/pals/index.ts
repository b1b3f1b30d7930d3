import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const palsModule: ResourceModule = { name: 'pals' };
