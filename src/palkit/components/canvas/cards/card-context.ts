// What a card renderer gets from pal-canvas: its validated arguments, a mutable draft that survives
// re-renders and failed posts, and the actions it can take.
import type { IncallStringKey } from '../../i18n/strings-incall.js';

export type Draft = Record<string, unknown>;

export interface CardContext<A> {
  readonly toolCallId: string;
  readonly args: A;
  /** The user's in-progress value; kept until the card goes away. */
  readonly draft: Draft;
  /** True while a submit is being recorded (controls are disabled). */
  readonly busy: boolean;
  t(key: IncallStringKey): string;
  /** Re-render after the draft changed. */
  changed(): void;
  submit(value: Record<string, unknown>): void;
  skip(value?: Record<string, unknown>): void;
  /** Move focus to an element of the card once it has rendered. */
  focus(selector: string): void;
  /**
   * The card's header shows the card's own prompt (a question or input without a title, an alert's
   * severity): the renderer keeps its label for screen readers only instead of saying it twice.
   */
  readonly labelInHeading: boolean;
  /** Unique id prefix for ids inside this card (labels, descriptions). */
  readonly idPrefix: string;
}
