// Binds a ConversationSession to an element: re-renders on every change and, when the element speaks for
// the session (the element the page placed), turns session events into the page-facing `pal-*` events.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConversationSession } from '../../client/session.js';
import {
  SessionChangeEvent,
  SessionErrorEvent,
  SessionInteractionEvent,
  SessionLifecycleEvent,
  SessionModeEvent,
  SessionStateEvent,
} from '../../client/session-events.js';
import { TransportTurnLatencyEvent } from '../../client/transport/transport.js';
import type { InteractionMessage } from '../../../protocol/interactions.js';
import {
  PalConversationCreatedEvent,
  PalConversationEndedEvent,
  PalConversationStartedEvent,
  PalErrorEvent,
  PalModeChangeEvent,
  PalProtocolMessageEvent,
  PalReadyEvent,
  PalStateChangeEvent,
  PalToolCallEvent,
  PalTurnLatencyEvent,
} from '../events/index.js';

type Host = ReactiveControllerHost & HTMLElement;

export class SessionController implements ReactiveController {
  session: ConversationSession | null = null;
  readonly #host: Host;
  readonly #emit: boolean;
  readonly #deploymentId: () => string;
  #unbind: (() => void) | null = null;
  /** Whether this controller disposes the session when the host leaves the page for good. */
  #owned = false;

  constructor(host: Host, options: { emit: boolean; deploymentId?: () => string }) {
    this.#host = host;
    this.#emit = options.emit;
    this.#deploymentId = options.deploymentId ?? (() => '');
    host.addController(this);
  }

  attach(session: ConversationSession | null, owned = false): void {
    if (session === this.session) return;
    this.#unbind?.();
    if (this.#owned) this.session?.dispose();
    this.session = session;
    this.#owned = owned;
    if (session && this.#host.isConnected) this.#bind(session);
    this.#host.requestUpdate();
  }

  hostConnected(): void {
    if (this.session && !this.#unbind) this.#bind(this.session);
  }

  hostDisconnected(): void {
    this.#unbind?.();
    this.#unbind = null;
    // A move within the page disconnects and reconnects in one task; only a real removal ends the call.
    queueMicrotask(() => {
      if (!this.#host.isConnected && this.#owned) this.session?.dispose();
    });
  }

  #bind(session: ConversationSession): void {
    const host = this.#host;
    const emit = (event: Event): void => void (this.#emit && host.dispatchEvent(event));
    const listeners: [string, (event: Event) => void][] = [
      [SessionChangeEvent.type, () => host.requestUpdate()],
      [
        SessionStateEvent.type,
        (e) => emit(new PalStateChangeEvent({ state: (e as SessionStateEvent).state, previous: (e as SessionStateEvent).previous })),
      ],
      [
        SessionModeEvent.type,
        (e) => emit(new PalModeChangeEvent({ mode: (e as SessionModeEvent).mode, previous: (e as SessionModeEvent).previous })),
      ],
      [
        SessionErrorEvent.type,
        (e) => {
          const { code, message, retryAfter } = (e as SessionErrorEvent).error;
          emit(new PalErrorEvent({ code, message, ...(retryAfter !== undefined ? { retryAfter } : {}) }));
        },
      ],
      [
        SessionLifecycleEvent.type,
        (e) => {
          const { phase, conversationId } = e as SessionLifecycleEvent;
          if (phase === 'ready') emit(new PalReadyEvent({ deploymentId: this.#deploymentId() }));
          if (phase === 'created') emit(new PalConversationCreatedEvent({ conversationId }));
          if (phase === 'started') emit(new PalConversationStartedEvent({ conversationId }));
          if (phase === 'ended') emit(new PalConversationEndedEvent({ conversationId }));
        },
      ],
      [SessionInteractionEvent.type, (e) => this.#relay((e as SessionInteractionEvent).message, emit)],
      [
        TransportTurnLatencyEvent.type,
        (e) => {
          const { inferenceId, ...figures } = (e as TransportTurnLatencyEvent).report;
          emit(new PalTurnLatencyEvent({ ...figures, inference_id: inferenceId }));
        },
      ],
    ];
    for (const [type, listener] of listeners) session.addEventListener(type, listener);
    this.#unbind = () => {
      for (const [type, listener] of listeners) session.removeEventListener(type, listener);
    };
  }

  #relay(message: InteractionMessage, emit: (event: Event) => void): void {
    emit(new PalProtocolMessageEvent(message));
    if (message.event_type !== 'conversation.tool_call') return;
    const { name, arguments: args, tool_call_id } = message.properties;
    if (typeof name !== 'string') return;
    emit(
      new PalToolCallEvent({
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
        ...(typeof tool_call_id === 'string' ? { tool_call_id } : {}),
        ...(message.seq !== undefined ? { seq: message.seq } : {}),
        ...(message.turn_idx !== undefined ? { turn_idx: message.turn_idx } : {}),
      }),
    );
  }
}
