// `palkit/react`: React components for the palkit elements, made with @lit/react so properties are set
// as properties and `onPal…` props listen to the `pal-*` events (React 18 and 19 alike). Importing this
// module registers the elements, like `import 'palkit'`. JSX typings for the raw tags come with it. The
// components and typings are generated from the elements' manifest (elements.ts, jsx.ts).
import '../components/define.js';
import { palCanvasEvents, palConversationEvents, palWidgetEvents } from './elements.js';
export * from './elements.js';
export type * from './jsx.js';

/** Every event a deployment element (widget, embed, landing page) fires, as `onPal…` props. */
export const deploymentEvents = palWidgetEvents;
/** pal-conversation used alone fires the same events except the deployment's own (ready, created). */
export const conversationEvents = palConversationEvents;
export const canvasEvents = palCanvasEvents;
