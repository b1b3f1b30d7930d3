// The script-tag bundle's second file, fetched on demand by palkit.js: the full implementation of the
// channel elements, registered under internal names that the light shells host.
import { defineScreens } from './components/define-screens.js';
import { defaultApiBase } from './components/shared/deployment-element.js';
import { EmbedElement, LandingElement, WidgetElement } from './components/shells.js';

export const implementations = { 'pal-widget': 'pal-widget-impl', 'pal-embed': 'pal-embed-impl', 'pal-landing': 'pal-landing-impl' } as const;

/** Registers the parts and the implementations; `apiBase` is the origin palkit.js came from. */
export function define(apiBase: string): void {
  defaultApiBase.value = apiBase;
  defineScreens();
  // The in-call parts arrive in a chunk of their own, fetched now but not waited for: the launcher and the
  // preview paint without them, and they are defined long before a visitor has joined.
  void import('./components/define-call.js').then((m) => m.defineCallParts());
  const classes: Record<string, CustomElementConstructor> = { 'pal-widget-impl': WidgetElement, 'pal-embed-impl': EmbedElement, 'pal-landing-impl': LandingElement };
  // Subclasses: a constructor can be registered once, and the npm build may own the originals.
  for (const [name, ctor] of Object.entries(classes)) if (!customElements.get(name)) customElements.define(name, class extends ctor {});
}
