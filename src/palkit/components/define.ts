// Registers every palkit element under its `pal-` name (the npm entry's only side effect).
import { defineParts, parts } from './define-parts.js';
import { EmbedElement, LandingElement, WidgetElement } from './shells.js';

/** Every element by its tag: the channel elements and their parts (the custom-elements manifest lists the same). */
export const elements = { 'pal-widget': WidgetElement, 'pal-embed': EmbedElement, 'pal-landing': LandingElement, ...parts } as const;

defineParts();
for (const [name, ctor] of Object.entries(elements)) if (!customElements.get(name)) customElements.define(name, ctor);
