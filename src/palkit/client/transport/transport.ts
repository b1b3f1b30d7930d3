// One interface over the two ways to be in a conversation room: Daily (daily-js) and palkit's local
// room (WebSocket). The session drives a transport; components never touch one directly.
import type { RoomTranscriptEntry } from '../../../protocol/room.js';

export type TransportKind = 'daily' | 'local';

/** What the stage needs to show one participant. */
export interface TransportParticipant {
  id: string;
  name: string;
  role: 'pal' | 'visitor' | 'operator' | 'unknown';
  local: boolean;
  videoTrack: MediaStreamTrack | null;
  audioTrack: MediaStreamTrack | null;
  /** Local room: the PAL's face thumbnail video or image, shown as its tile (when it has no video track). */
  videoUrl?: string | null;
  imageUrl?: string | null;
  /** Local room: the PAL is talking now (a face's footage moves only then). */
  speaking?: boolean;
}

export interface JoinOptions {
  url: string;
  token: string;
  userName?: string;
  startVideo: boolean;
  startAudio: boolean;
  audioDeviceId?: string;
  videoDeviceId?: string;
  /** Join in text mode (see Transport.setTextMode). */
  textMode?: boolean;
  /** The PAL's trained face, when the start's answer named it: its rig is fetched from now on, before the room names it. */
  faceRigUrl?: string;
}

export interface Transport extends EventTarget {
  readonly kind: TransportKind;
  readonly participants: readonly TransportParticipant[];
  /** The room records the call (the stage shows an indicator). */
  readonly recording?: boolean;
  /** The conversation so far, as the room sent it on joining (local rooms). */
  readonly history?: readonly RoomTranscriptEntry[];
  /** Rejects with a PalClientError when the room refuses or cannot be reached. */
  join(options: JoinOptions): Promise<void>;
  /** Leaves the room; `end` when the visitor ended the call (the conversation ends at once where the room can tell). */
  leave(options?: { end?: boolean }): Promise<void>;
  sendAppMessage(data: unknown): void;
  setMicrophoneEnabled(enabled: boolean): void;
  setCameraEnabled(enabled: boolean): void;
  setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void>;
  /** Text mode: the PAL's voice is not played, and the room (where it can) has the PAL write its replies instead. */
  setTextMode(on: boolean): void;
}

/** An app-message arrived from the room. */
export class TransportMessageEvent extends Event {
  static readonly type = 'transport-message';
  constructor(
    readonly data: unknown,
    readonly from: string,
  ) {
    super(TransportMessageEvent.type);
  }
}

/** The participant list or one of its tracks changed. */
export class TransportParticipantsEvent extends Event {
  static readonly type = 'transport-participants';
  constructor() {
    super(TransportParticipantsEvent.type);
  }
}

/** Something the visitor should know about the call, which goes on (e.g. `hearing_unavailable`). */
export class TransportNoticeEvent extends Event {
  static readonly type = 'transport-notice';
  constructor(
    readonly code: string,
    readonly message: string,
  ) {
    super(TransportNoticeEvent.type);
  }
}

/** What the visitor heard of one PAL reply, measured in the page (local rooms; see turn-latency.ts). */
export class TransportTurnLatencyEvent extends Event {
  static readonly type = 'transport-turn-latency';
  constructor(readonly report: import('./turn-latency.js').TurnLatencyReport) {
    super(TransportTurnLatencyEvent.type);
  }
}

/** The room ended the call (or the connection dropped) without us asking. */
export class TransportEndedEvent extends Event {
  static readonly type = 'transport-ended';
  constructor(
    readonly reason: string,
    readonly failed: boolean,
  ) {
    super(TransportEndedEvent.type);
  }
}

/** Transport chosen by the conversation URL: hosts under daily.co are Daily rooms, the rest local rooms. */
export function transportKindFor(conversationUrl: string): TransportKind {
  const host = new URL(conversationUrl).hostname;
  return host === 'daily.co' || host.endsWith('.daily.co') ? 'daily' : 'local';
}
