import type { ResourceModule } from '../module.js';

/** Not built yet. */
export const documentsModule: ResourceModule = { name: 'documents' };
