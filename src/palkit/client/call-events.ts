// What a joined call's transport tells the session: the room's messages (parsed for the page), who is in
// it, the heard-latency figures, its end, and notices for the visitor. Loaded with the transports, on first
// need: the launcher, the preview and the gate do without it.
import { parseInteraction } from '../../protocol/interactions.js';
import { PalClientError } from './errors.js';
import { LinkMessageEvent } from './link.js';
import { SessionInteractionEvent } from './session-events.js';
import {
  TransportEndedEvent,
  TransportMessageEvent,
  TransportNoticeEvent,
  TransportParticipantsEvent,
  TransportTurnLatencyEvent,
  type Transport,
} from './transport/transport.js';

/** The session, as the visitor's notices change. */
export interface CallSession extends EventTarget {
  notice: string | null;
  dismissNotice(): void;
  setTextMode(on: boolean): void;
}

/** The session's own steps a call's events take. */
export interface CallHooks {
  changed(): void;
  report(error: PalClientError): void;
  ended(event: TransportEndedEvent): void;
}

export function listenToCall(transport: Transport, session: CallSession, hooks: CallHooks): void {
  let noticeBeforeReconnecting: string | null = null;
  transport.addEventListener(TransportMessageEvent.type, (e) => {
    const raw = (e as TransportMessageEvent).data;
    const message = parseInteraction(raw);
    // The visitor's words got through after all: "didn't catch that" no longer holds.
    if (session.notice === 'not_heard' && message?.event_type === 'conversation.utterance' && message.properties.role === 'user')
      session.dismissNotice();
    if (message) session.dispatchEvent(new SessionInteractionEvent(message));
    session.dispatchEvent(new LinkMessageEvent(raw));
  });
  transport.addEventListener(TransportParticipantsEvent.type, () => hooks.changed());
  // The transport's figures reach the element as they are (a copy: an event is dispatched once).
  transport.addEventListener(TransportTurnLatencyEvent.type, (e) =>
    session.dispatchEvent(new TransportTurnLatencyEvent((e as TransportTurnLatencyEvent).report)),
  );
  transport.addEventListener(TransportEndedEvent.type, (e) => hooks.ended(e as TransportEndedEvent));
  transport.addEventListener(TransportNoticeEvent.type, (e) => {
    const { code, message } = e as TransportNoticeEvent;
    // For the page, not the visitor: the call goes on with the face's still image.
    if (code === 'face_unavailable') return hooks.report(new PalClientError(code, message));
    // Back in the room after it moved: "reconnecting" no longer holds; what the visitor was told before does.
    if (code === 'reconnected') {
      if (session.notice === 'reconnecting') session.notice = noticeBeforeReconnecting;
      return hooks.changed();
    }
    if (code === 'reconnecting' && session.notice !== code) noticeBeforeReconnecting = session.notice;
    session.notice = code;
    // No microphone (refused, missing, taken): the visitor goes on by text rather than talking to no one.
    if (session.notice === 'microphone_unavailable') session.setTextMode(true);
    hooks.changed();
  });
}
