// Registers every palkit element under its `pal-` name (the npm entry's only side effect).
import { defineParts } from './define-parts.js';
import { EmbedElement, LandingElement, WidgetElement } from './shells.js';

defineParts();
for (const [name, ctor] of [['pal-widget', WidgetElement], ['pal-embed', EmbedElement], ['pal-landing', LandingElement]] as const)
  if (!customElements.get(name)) customElements.define(name, ctor);
