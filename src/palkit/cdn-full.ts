// The script-tag bundle's second file, fetched on demand by palkit.js: the full implementation of the
// channel elements, registered under internal names that the light shells host.
import { defineScreens } from './components/define-screens.js';
import { defaultApiBase } from './components/shared/deployment-element.js';
import { EmbedElement, LandingElement, WidgetElement } from './components/shells.js';

export const implementations = {
  'pal-widget': 'pal-widget-impl',
  'pal-embed': 'pal-embed-impl',
  'pal-landing': 'pal-landing-impl',
} as const;

/**
 * Registers the screens and the implementations; `apiBase` is the origin palkit.js came from. The in-call
 * parts arrive in a chunk of their own, which the elements fetch once their preview is on view.
 */
export function define(apiBase: string): void {
  defaultApiBase.value = apiBase;
  defineScreens();
  const classes: Record<string, CustomElementConstructor> = {
    'pal-widget-impl': WidgetElement,
    'pal-embed-impl': EmbedElement,
    'pal-landing-impl': LandingElement,
  };
  // Subclasses: a constructor can be registered once, and the npm build may own the originals.
  for (const [name, ctor] of Object.entries(classes)) if (!customElements.get(name)) customElements.define(name, class extends ctor {});
}

/** For parts a page uses on their own (e.g. `<pal-conversation>`): registers every part now. */
export function defineParts(): Promise<void> {
  defineScreens();
  return import('./components/define-call.js').then((m) => m.defineCallParts());
}
