import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const conversationsModule: ResourceModule = { name: 'conversations' };
