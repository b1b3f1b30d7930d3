// The three channel elements, re-exported for registration under any name (the script-tag bundle puts
// light shells on the `pal-` names and these behind them).
export { PalWidget as WidgetElement } from './widget/widget.js';
export { PalEmbed as EmbedElement } from './embed/embed.js';
export { PalLanding as LandingElement } from './landing/landing.js';
