// PALs (the older name is persona) and the skills attached to them.
import type { ResourceModule } from '../module.js';
import { registerPalRoutes } from './handlers.js';
import { registerSkillRoutes } from './skills/handlers.js';

// For other areas (the live PAL, conversations, deployments): the stored PAL document, its skills,
// which canvas components are on, and the decrypted key of a layer.
export type { PalDocument } from './document.js';
export { palSkills } from './skills/repository.js';
export { enabledCanvasComponents } from './skills/registry.js';
export { layerSecret } from './layer-secrets.js';

export const palsModule: ResourceModule = {
  name: 'pals',
  routes(app, deps) {
    registerPalRoutes(app, deps, 'pals');
    registerPalRoutes(app, deps, 'personas');
    registerSkillRoutes(app, deps);
  },
};
