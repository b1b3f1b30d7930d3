// `palkit/vue`: what a Vue app needs to use the palkit elements. Vue must treat `pal-*` tags as custom
// elements (compile-time option, see `isPalElement`), and the GlobalComponents entries below type the
// tags, their properties and `@pal-…` listeners in templates (Volar / vue-tsc). Importing this module
// also registers the elements, like `import 'palkit'`.
import type { EmitFn, HTMLAttributes } from 'vue';
import '../components/define.js';
import type { PalCanvas } from '../components/canvas/canvas.js';
import type { PalConversation } from '../components/conversation/conversation.js';
import type { PalDisclosure } from '../components/disclosure/disclosure.js';
import type { PalEmbed } from '../components/embed/embed.js';
import type {
  PalCanvasInteractionEvent, PalConversationCreatedEvent, PalConversationEndedEvent, PalConversationStartedEvent,
  PalErrorEvent, PalModeChangeEvent, PalProtocolMessageEvent, PalReadyEvent, PalStateChangeEvent, PalToolCallEvent, PalTurnLatencyEvent,
} from '../components/events/index.js';
import type { PalLanding } from '../components/landing/landing.js';
import type { PalTranscript } from '../components/transcript/transcript.js';
import type { PalWidget } from '../components/widget/widget.js';

/**
 * For `compilerOptions.isCustomElement` (Vite: `vue({ template: { compilerOptions: { isCustomElement: isPalElement } } })`,
 * in-browser template compiler: `app.config.compilerOptions.isCustomElement = isPalElement`).
 */
export const isPalElement = (tag: string): boolean => tag.startsWith('pal-');

export type PalDeploymentEvents = {
  'pal-ready': PalReadyEvent;
  'pal-conversation-created': PalConversationCreatedEvent;
  'pal-conversation-started': PalConversationStartedEvent;
  'pal-conversation-ended': PalConversationEndedEvent;
  'pal-state-change': PalStateChangeEvent;
  'pal-mode-change': PalModeChangeEvent;
  'pal-error': PalErrorEvent;
  'pal-tool-call': PalToolCallEvent;
  'pal-protocol-message': PalProtocolMessageEvent;
  'pal-canvas-interaction': PalCanvasInteractionEvent;
  'pal-turn-latency': PalTurnLatencyEvent;
};

export type PalConversationEvents = Omit<PalDeploymentEvents, 'pal-ready' | 'pal-conversation-created'>;
export type PalCanvasEvents = Pick<PalDeploymentEvents, 'pal-canvas-interaction'>;

type EventMap = Record<string, Event>;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** `@pal-ready` in a template is the `onPalReady` prop. */
type EventProps<E extends EventMap> = { [K in keyof E & string as `on${Capitalize<Camel<K>>}`]?: (event: E[K]) => void };

/**
 * A custom element as Vue sees it in templates: its properties, the HTML attributes, and its events.
 * `Props` replaces the type of properties that templates set differently (the widget's `open`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` defaults as in Vue's own DefineComponent
export type DefineCustomElement<Element extends HTMLElement, Events extends EventMap = {}, Props extends object = {}> = new () => Element & {
  /** Template prop types only; not a real property of the element. */
  $props: HTMLAttributes & Partial<Omit<Element, keyof HTMLElement | keyof Props>> & Props & EventProps<Events> & Record<`${string}-${string}`, unknown>;
  /** Template event types only; not a real property of the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    /** `<pal-widget open>` opens the popup at load; `el.open()` stays a method. */
    'pal-widget': DefineCustomElement<PalWidget, PalDeploymentEvents, { open?: boolean | '' }>;
    'pal-embed': DefineCustomElement<PalEmbed, PalDeploymentEvents>;
    'pal-landing': DefineCustomElement<PalLanding, PalDeploymentEvents>;
    'pal-conversation': DefineCustomElement<PalConversation, PalConversationEvents>;
    'pal-transcript': DefineCustomElement<PalTranscript>;
    'pal-disclosure': DefineCustomElement<PalDisclosure>;
    'pal-canvas': DefineCustomElement<PalCanvas, PalCanvasEvents>;
  }
}
