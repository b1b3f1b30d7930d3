// Listens to a ConversationLink for its host while the host is in the document: the in-call parts
// (disclosure, transcript, canvas) get each well-formed PAL message, and nothing once removed.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LinkHistoryEvent, LinkMessageEvent, type ConversationLink, type RoomTranscriptEntry } from '../../client/link.js';
import { parsePalMessage, type PalMessage } from '../../../protocol/interactions.js';

export interface LinkSubscriptionHooks {
  onMessage(message: PalMessage): void;
  /** The conversation so far (when the host listens, and when the room sends it on joining). */
  onHistory?(history: readonly RoomTranscriptEntry[]): void;
  /** Called when the host starts / stops listening to a link. */
  attached?(link: ConversationLink): void;
  detached?(link: ConversationLink): void;
}

export class LinkSubscription implements ReactiveController {
  #link: ConversationLink | null = null;
  #subscribed: ConversationLink | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly hooks: LinkSubscriptionHooks,
  ) {
    host.addController(this);
  }

  get link(): ConversationLink | null {
    return this.#link;
  }

  /** Subscribes at once, so no message sent right after the link is set is missed. */
  set link(link: ConversationLink | null) {
    this.#link = link;
    this.#sync();
  }

  /** The link listened to now (null while the host is out of the document). */
  get subscribed(): ConversationLink | null {
    return this.#subscribed;
  }

  hostConnected(): void {
    this.#sync();
  }

  hostDisconnected(): void {
    this.#sync();
  }

  #sync(): void {
    const wanted = this.host.isConnected ? this.#link : null;
    if (wanted === this.#subscribed) return;
    if (this.#subscribed) {
      this.#subscribed.removeEventListener(LinkMessageEvent.type, this.#onEvent);
      this.#subscribed.removeEventListener(LinkHistoryEvent.type, this.#onHistory);
      this.hooks.detached?.(this.#subscribed);
    }
    this.#subscribed = wanted;
    if (wanted) {
      wanted.addEventListener(LinkMessageEvent.type, this.#onEvent);
      wanted.addEventListener(LinkHistoryEvent.type, this.#onHistory);
      this.hooks.attached?.(wanted);
      if (wanted.history?.length) this.hooks.onHistory?.(wanted.history);
    }
  }

  readonly #onHistory = (event: Event): void => this.hooks.onHistory?.((event as LinkHistoryEvent).history);

  readonly #onEvent = (event: Event): void => {
    const message = parsePalMessage((event as LinkMessageEvent).message);
    if (message) this.hooks.onMessage(message);
  };
}
