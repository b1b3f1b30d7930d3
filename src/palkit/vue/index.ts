// `palkit/vue`: what a Vue app needs to use the palkit elements. Vue must treat `pal-*` tags as custom
// elements (compile-time option, see `isPalElement`), and the GlobalComponents entries (elements.ts,
// generated from the elements' manifest) type the tags, their properties and `@pal-…` listeners in
// templates (Volar / vue-tsc). Importing this module also registers the elements, like `import 'palkit'`.
import '../components/define.js';
import type { PalWidgetEvents } from './elements.js';
export type * from './elements.js';
export type { DefineCustomElement } from './define-custom-element.js';

/**
 * For `compilerOptions.isCustomElement` (Vite: `vue({ template: { compilerOptions: { isCustomElement: isPalElement } } })`,
 * in-browser template compiler: `app.config.compilerOptions.isCustomElement = isPalElement`).
 */
export const isPalElement = (tag: string): boolean => tag.startsWith('pal-');

/** The events of the deployment elements (widget, embed, landing page). */
export type PalDeploymentEvents = PalWidgetEvents;
