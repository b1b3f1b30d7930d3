// `palkit/react`: React components for the palkit elements, made with @lit/react so properties are set
// as properties and `onPal…` props listen to the `pal-*` events (React 18 and 19 alike). Importing this
// module registers the elements, like `import 'palkit'`. JSX typings for the raw tags come with it.
import { createComponent } from '@lit/react';
import * as React from 'react';
import '../components/define.js';
import { PalCanvas as CanvasElement } from '../components/canvas/canvas.js';
import { PalConversation as ConversationElement } from '../components/conversation/conversation.js';
import { PalDisclosure as DisclosureElement } from '../components/disclosure/disclosure.js';
import { PalEmbed as EmbedElement } from '../components/embed/embed.js';
import { PalLanding as LandingElement } from '../components/landing/landing.js';
import { PalTranscript as TranscriptElement } from '../components/transcript/transcript.js';
import { PalWidget as WidgetElement } from '../components/widget/widget.js';
import { canvasEvents, conversationEvents, deploymentEvents } from './events.js';
export type * from './jsx.js';
export { deploymentEvents, conversationEvents, canvasEvents };

/** `<pal-widget>`: the floating launcher and popup. */
export const PalWidget = createComponent({ tagName: 'pal-widget', elementClass: WidgetElement, react: React, events: deploymentEvents, displayName: 'PalWidget' });

/** `<pal-embed>`: the conversation inline in the page. */
export const PalEmbed = createComponent({ tagName: 'pal-embed', elementClass: EmbedElement, react: React, events: deploymentEvents, displayName: 'PalEmbed' });

/** `<pal-landing>`: a whole-page conversation. */
export const PalLanding = createComponent({ tagName: 'pal-landing', elementClass: LandingElement, react: React, events: deploymentEvents, displayName: 'PalLanding' });

/** `<pal-conversation>`: a live conversation on your own surface (conversation URL + meeting token). */
export const PalConversation = createComponent({
  tagName: 'pal-conversation', elementClass: ConversationElement, react: React, events: conversationEvents, displayName: 'PalConversation',
});

/** `<pal-transcript>`: captions or the transcript panel of a conversation link. */
export const PalTranscript = createComponent({ tagName: 'pal-transcript', elementClass: TranscriptElement, react: React, displayName: 'PalTranscript' });

/** `<pal-disclosure>`: the AI disclosure banner of a conversation link. */
export const PalDisclosure = createComponent({ tagName: 'pal-disclosure', elementClass: DisclosureElement, react: React, displayName: 'PalDisclosure' });

/** `<pal-canvas>`: Magic Canvas cards of a conversation link. */
export const PalCanvas = createComponent({ tagName: 'pal-canvas', elementClass: CanvasElement, react: React, events: canvasEvents, displayName: 'PalCanvas' });
