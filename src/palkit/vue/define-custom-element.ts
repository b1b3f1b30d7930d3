// How Vue's template checker (Volar / vue-tsc) sees a custom element: its properties, the HTML
// attributes, and its events as `@pal-…` listeners.
import type { EmitFn, HTMLAttributes } from 'vue';

type EventMap = Record<string, Event>;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** `@pal-ready` in a template is the `onPalReady` prop. */
type EventProps<E extends EventMap> = { [K in keyof E & string as `on${Capitalize<Camel<K>>}`]?: (event: E[K]) => void };

/**
 * A custom element as Vue sees it in templates: its properties, the HTML attributes, and its events.
 * `Props` replaces the type of properties that templates set differently (the widget's `open`).
 */
/* eslint-disable @typescript-eslint/no-empty-object-type -- `{}` defaults as in Vue's own DefineComponent */
export type DefineCustomElement<
  Element extends HTMLElement,
  Events extends EventMap = {},
  Props extends object = {},
> = new () => Element & {
  /** Template prop types only; not a real property of the element. */
  $props: HTMLAttributes &
    Partial<Omit<Element, keyof HTMLElement | keyof Props>> &
    Props &
    EventProps<Events> &
    Record<`${string}-${string}`, unknown>;
  /** Template event types only; not a real property of the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};
/* eslint-enable @typescript-eslint/no-empty-object-type */
