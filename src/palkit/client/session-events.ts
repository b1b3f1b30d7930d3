// Events a ConversationSession dispatches on itself. The components turn them into the page-facing
// `pal-*` events; keeping them here keeps the runtime free of UI.
import type { InteractionMessage } from '../../protocol/interactions.js';
import type { PalClientError } from './errors.js';

export type SessionState = 'idle' | 'initializing' | 'connecting' | 'connected' | 'disconnecting' | 'ended' | 'error';
export type SessionMode = 'idle' | 'haircheck' | 'call' | 'ended' | 'unavailable';

/** Something the UI shows changed (state, mode, gate, participants, devices). */
export class SessionChangeEvent extends Event {
  static readonly type = 'session-change';
  constructor() {
    super(SessionChangeEvent.type);
  }
}

export class SessionStateEvent extends Event {
  static readonly type = 'session-state';
  constructor(
    readonly state: SessionState,
    readonly previous: SessionState,
  ) {
    super(SessionStateEvent.type);
  }
}

export class SessionModeEvent extends Event {
  static readonly type = 'session-mode';
  constructor(
    readonly mode: SessionMode,
    readonly previous: SessionMode,
  ) {
    super(SessionModeEvent.type);
  }
}

/** Lifecycle milestones of a conversation: created (by createConversation), started (joined), ended (a live call ended). */
export class SessionLifecycleEvent extends Event {
  static readonly type = 'session-lifecycle';
  constructor(
    readonly phase: 'ready' | 'created' | 'started' | 'ended',
    readonly conversationId: string,
  ) {
    super(SessionLifecycleEvent.type);
  }
}

export class SessionErrorEvent extends Event {
  static readonly type = 'session-error';
  constructor(readonly error: PalClientError) {
    super(SessionErrorEvent.type);
  }
}

/** A Magic Canvas interaction was recorded with the service. */
export class SessionCanvasEvent extends Event {
  static readonly type = 'session-canvas';
  constructor(readonly body: import('./link.js').CanvasInteractionBody) {
    super(SessionCanvasEvent.type);
  }
}

/** A well-formed interactions-protocol message arrived from the room (just before its LinkMessageEvent). */
export class SessionInteractionEvent extends Event {
  static readonly type = 'session-interaction';
  constructor(readonly message: InteractionMessage) {
    super(SessionInteractionEvent.type);
  }
}
