// What the room does with a participant's frames once it is in: each charged to its meeting token's
// budget, handled inside a fault boundary, and dispatched (room protocol frames, microphone audio,
// app-messages relayed with Daily's semantics).
import type { RawData } from 'ws';
import {
  AudioFrameKind,
  ClientFrame,
  RoomCloseCode,
  decodeAudioFrame,
  type ServerFrame,
  type TurnLatencyFrame,
} from '../../../protocol/room.js';
import type { ServiceDeps } from '../../platform/context.js';
import { PalAgent } from '../agent/pal-agent.js';
import { countRefused, ParticipantBudget, type BudgetVerdict } from './participant-budget.js';
import type { Member, RoomMembers } from './members.js';

/** How long a connection closed for flooding has to read its close frame before it is dropped. */
const FLOOD_CLOSE_GRACE_MS = 200;

/** The part of a room that a participant's frames reach: the room hands this over, not itself. */
export interface FrameRoom {
  readonly deps: ServiceDeps;
  readonly conversationId: string;
  readonly members: RoomMembers;
  isClosing(): boolean;
  pal(): PalAgent | null;
  leave(participantId: string): void;
  /** A visitor left for good (pressed End, or was thrown out): with no other visitor, the conversation ends now. */
  visitorGone(member: Member): void;
  faceReady(): void;
  turnLatency(member: Member, frame: TurnLatencyFrame): void;
  /** A visitor's microphone audio, for the call's recording. */
  record(participantId: string, samples: Int16Array, sampleRate: number): void;
}

export class ParticipantFrames {
  /** What each meeting token (a participant without one: its id) may still send; one entry per token used here. */
  private readonly budgets = new Map<string, ParticipantBudget>();

  constructor(private readonly room: FrameRoom) {}

  /** The reader of a member's frames. One budget per meeting token: joining again does not refill it. */
  reader(member: Member): (data: RawData | string, isBinary: boolean) => void {
    const { deps, members } = this.room;
    const participantId = member.participant.participant_id;
    const budgetKey = member.token || participantId;
    const budget = this.budgets.get(budgetKey) ?? new ParticipantBudget(() => deps.clock.now().getTime());
    this.budgets.set(budgetKey, budget);
    return (data, isBinary) => {
      // A connection closed for flooding may still deliver what it had sent: that costs nothing more.
      if (!members.has(participantId)) return;
      // A room closing reads nothing more, pings included: the page sends it again where the room goes next.
      if (this.room.isClosing()) return;
      const verdict = budget.admit(data, isBinary);
      if (!verdict.ok) return this.refuse(member, verdict);
      this.contained(member, () => (isBinary ? this.onAudio(member, data) : this.onFrame(member, data.toString())));
    };
  }

  /**
   * The fault boundary of a participant's frames: whatever handling one throws ends that participant's
   * connection with an error frame and a logged reason, never the process or anyone else's call.
   */
  private contained(member: Member, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      const participantId = member.participant.participant_id;
      this.room.deps.log.error('a participant frame failed; its connection is closed', {
        conversation_id: this.room.conversationId,
        participant_id: participantId,
        error: error instanceof Error ? error.message : String(error),
      });
      this.room.members.sendTo(member, {
        type: 'error',
        code: 'internal_error',
        message: 'this frame could not be handled; the connection is closed',
      });
      member.socket.close(1011, 'internal_error');
      this.room.leave(participantId);
    }
  }

  /**
   * A frame past the participant's budget, or malformed, is dropped (said once a while per kind); a
   * connection that keeps flooding is closed. Its page does not join again after that close (4429), so a
   * visitor thrown out is a visitor who left for good: with no other visitor in the room the conversation
   * ends now, as when a visitor presses End, instead of waiting participant_left_timeout for nobody.
   */
  private refuse(member: Member, verdict: Exclude<BudgetVerdict, { ok: true }>): void {
    const { deps, members } = this.room;
    countRefused(deps.metrics, verdict);
    if (verdict.close) {
      deps.log.info('a participant kept sending past its budget; its connection is closed', {
        conversation_id: this.room.conversationId,
        participant_id: member.participant.participant_id,
        kind: verdict.kind,
      });
      members.sendTo(member, { type: 'error', code: 'flooding', message: 'too much was sent too fast; the connection is closed' });
      member.socket.close(RoomCloseCode.flooding, 'flooding');
      // A flooder would go on sending until it reads the close; what it sends meanwhile is not read.
      deps.clock.setTimeout(() => member.socket.terminate?.(), FLOOD_CLOSE_GRACE_MS).unref();
      this.room.leave(member.participant.participant_id);
      return this.room.visitorGone(member);
    }
    if (!verdict.first) return;
    if (verdict.kind === 'malformed')
      members.sendTo(member, {
        type: 'error',
        code: 'bad_frame',
        message: 'binary frames are microphone audio frames (kind 2, 8 to 96 kHz, samples after the 8-byte header)',
      });
    else
      members.sendTo(member, {
        type: 'error',
        code: 'rate_limited',
        message: `${verdict.kind} sent faster than the room takes it is dropped`,
      });
  }

  /** Microphone audio from a participant: the PAL listens to visitors (operators only watch). */
  private onAudio(member: Member, data: RawData | string): void {
    const frame = decodeAudioFrame(
      Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : typeof data === 'string'
            ? Buffer.from(data)
            : Buffer.from(data),
    );
    if (!frame || frame.kind !== AudioFrameKind.microphone)
      return this.room.members.sendTo(member, { type: 'error', code: 'bad_frame', message: 'binary frames are microphone audio frames' });
    if (member.participant.role !== 'visitor') return;
    this.room.record(member.participant.participant_id, frame.samples, frame.sampleRate);
    this.room.pal()?.hear(member.participant, frame.samples, frame.sampleRate);
  }

  private onFrame(member: Member, text: string | null): void {
    const { deps, members } = this.room;
    let frame: ClientFrame | undefined;
    try {
      const parsed = ClientFrame.safeParse(text === null ? null : JSON.parse(text));
      if (parsed.success) frame = parsed.data;
    } catch {
      /* not JSON */
    }
    if (!frame)
      return members.sendTo(member, { type: 'error', code: 'bad_frame', message: 'frames are JSON objects of the room protocol' });
    if (frame.type === 'join')
      return members.sendTo(member, { type: 'error', code: 'already_joined', message: 'this connection already joined the room' });
    if (frame.type === 'text-mode') return this.room.pal()?.setTextMode(frame.on);
    if (frame.type === 'hearing')
      return member.participant.role === 'visitor'
        ? this.room.pal()?.setHearing(PalAgent.transcribes(deps) || frame.speech_recognition)
        : undefined;
    if (frame.type === 'turn-latency') return this.room.turnLatency(member, frame);
    if (frame.type === 'face-ready') return this.room.faceReady();
    if (frame.type === 'ping') return members.sendTo(member, { type: 'pong', ...(frame.n !== undefined ? { n: frame.n } : {}) });
    if (frame.type === 'leave') {
      this.room.leave(member.participant.participant_id);
      member.socket.close(1000, 'left');
      // The visitor pressed End: with no other visitor in the room, the conversation ends now.
      if (frame.end) this.room.visitorGone(member);
      return;
    }
    this.relay(member, frame.data, frame.to);
  }

  /** Daily semantics: to everyone but the sender, or to one participant; the PAL hears what is meant for it. */
  private relay(member: Member, data: unknown, to: string | undefined): void {
    const pal = this.room.pal();
    const frame: ServerFrame = { type: 'app-message', from: member.participant.participant_id, data };
    const sender = { participantId: member.participant.participant_id, userName: member.participant.user_name };
    if (to === undefined || to === '*') {
      this.room.members.broadcast(frame, member.participant.participant_id);
      pal?.handle(data, sender);
    } else if (to === pal?.participant.participant_id) {
      pal?.handle(data, sender);
    } else {
      const target = this.room.members.get(to);
      if (target) this.room.members.sendTo(target, frame);
    }
  }
}
