import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const videosModule: ResourceModule = { name: 'videos' };
