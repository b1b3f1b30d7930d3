// One live local room on this instance: its participants (who they are and delivery to them: members.ts;
// what their frames do: participant-frames.ts), the local PAL, its own timeouts, and the shutdown (mark
// ended, `ended` frame, close, end callbacks).
import { randomUUID } from 'node:crypto';
import type { RoomMessage } from '../agent/app-message.js';
import { loadRoomHistory } from '../../resources/conversations/transcript-store.js';
import { AudioFrameKind, ROOM_HISTORY_LIMIT, RoomCloseCode, encodeAudioFrame, type Participant } from '../../../protocol/room.js';
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import { visemeIndex } from '../../../protocol/visemes.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { ClockTimer } from '../../platform/time.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { fixedLanguage } from '../../resources/pals/lines/language.js';
import { FRAME_INTERVAL_MS, perceives } from '../perception/perception.js';
import { PalAgent } from '../agent/pal-agent.js';
import { finalizeConversation, markConversationEnded } from './finalize.js';
import { claimPalJoined } from '../../resources/conversations/pal-joined.js';
import { nextDeadline, roomLimits, type RoomLimits, type RoomMarks } from '../../resources/conversations/limits.js';
import { keepRecording, pauseRecording, recordingRequested, startRecording, type LiveRecording } from '../recording/store.js';
import { JoinBacklog } from './join-backlog.js';
import { RoomMembers, type Member, type RoomSocket } from './members.js';
import { FaceShown, faceToWaitFor } from './face-shown.js';
import { ParticipantFrames } from './participant-frames.js';
import { TurnLatencyReports } from './turn-latency-reports.js';
/** setTimeout cannot wait longer than this; a later deadline is re-armed when it is reached. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Room {
  readonly conversationId: string;
  private readonly members: RoomMembers;
  private readonly frames: ParticipantFrames;
  private readonly turnLatencies: TurnLatencyReports;
  private readonly limits: RoomLimits;
  private readonly marks: RoomMarks;
  private pal: PalAgent | null = null;
  private timer: ClockTimer | undefined;
  private closing: Promise<void> | null = null;
  /** The call's recording, when the conversation asked for one (started with the PAL). */
  private recording: Promise<LiveRecording | null> | null = null;
  private recorder: LiveRecording | null = null;
  /** The PAL's first line waits for its face to be shown on the first visitor's page (face-shown.ts). */
  private faceShown: FaceShown | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly conv: LiveConversation,
    private readonly onClosed: (room: Room) => void,
  ) {
    this.conversationId = conv.conversationId;
    this.members = new RoomMembers(deps, conv.conversationId);
    this.limits = roomLimits(conv.properties);
    this.marks = { createdAt: conv.createdAt, startedAt: conv.startedAt, emptySince: null };
    this.turnLatencies = new TurnLatencyReports(deps, conv.conversationId);
    this.frames = new ParticipantFrames({
      deps,
      conversationId: conv.conversationId,
      members: this.members,
      isClosing: () => this.isClosing,
      pal: () => this.pal,
      leave: (participantId) => this.leave(participantId),
      visitorGone: (member) => this.visitorGone(member),
      faceReady: () => this.faceShown?.open('face-ready'),
      turnLatency: (member, frame) => this.turnLatencies.report(member, frame),
      record: (participantId, samples, sampleRate) => this.recorder?.recorder.add(participantId, samples, sampleRate),
    });
  }

  get isClosing(): boolean {
    return this.closing !== null;
  }

  get participantCount(): number {
    return this.members.size;
  }

  /** Admits a participant whose token was checked; the PAL joins with the first one. */
  async admit(
    socket: RoomSocket,
    role: 'visitor' | 'operator',
    joining: {
      userName?: string | undefined;
      token?: string;
      textMode?: boolean;
      timeZone?: string | undefined;
      locale?: string | undefined;
      faceReady?: boolean | undefined;
      speechRecognition?: boolean | undefined;
    },
    backlog: JoinBacklog = new JoinBacklog(),
  ): Promise<void> {
    const { userName, token = '' } = joining;
    if (this.closing) return void socket.close(RoomCloseCode.ended, 'conversation ended');
    const participant: Participant = {
      participant_id: `p_${randomUUID()}`,
      user_name: userName?.trim().slice(0, 80) || (role === 'operator' ? 'Operator' : 'Guest'),
      role,
    };
    const member: Member = { participant, socket, token };
    const now = this.deps.clock.now();
    this.marks.startedAt ??= now;
    this.marks.emptySince = null;
    // A recorded call records from the first word: the file is open before anyone is told they joined.
    if (!this.recording && recordingRequested(this.conv.properties)) this.recording = this.startRecording();
    // What was said so far goes with the welcome, so that a visitor joining again (a reload) keeps it.
    const [, , transcript] = await Promise.all([
      this.recording,
      this.deps.db
        .updateTable('conversations')
        // A Daily conversation's start is claimed with its join callbacks (claimPalJoined, just below).
        .set((eb) => ({
          ...(this.conv.provider === 'local' ? { live_started_at: eb.fn.coalesce('live_started_at', eb.val(now)) } : {}),
          live_empty_since: null,
          live_heartbeat_at: now,
        }))
        .where('conversation_id', '=', this.conversationId)
        .execute()
        .then(() => (this.conv.provider === 'daily' ? claimPalJoined(this.deps, this.conversationId) : undefined)),
      (this.pal?.settled() ?? Promise.resolve()).then(() => loadRoomHistory(this.deps.db, this.conversationId, ROOM_HISTORY_LIMIT)),
    ]);
    if (socket.readyState !== socket.OPEN) return;
    if (this.closing) return void socket.close(RoomCloseCode.ended, 'conversation ended');
    // A token admits one live connection: the newest (a reload, a second tab) replaces the older one.
    for (const [id, other] of this.members) {
      if (token && other.token === token) {
        this.members.delete(id);
        this.pal?.left(id);
        this.members.broadcast({ type: 'participant-left', participant_id: id });
        other.socket.close(RoomCloseCode.replaced, 'joined again with the same meeting token');
      }
    }
    this.members.set(participant.participant_id, member);
    this.deps.log.info('participant joined', {
      conversation_id: this.conversationId,
      participant_id: participant.participant_id,
      role,
      participants: this.members.size,
    });
    this.recordWhileVisited();
    socket.on('close', () => {
      this.leave(participant.participant_id);
      if (socket.closedForFlooding) this.visitorGone(member);
    });
    this.members.sendTo(member, {
      type: 'joined',
      participant_id: participant.participant_id,
      conversation_id: this.conversationId,
      participants: this.participants(),
      transcribes: PalAgent.transcribes(this.deps),
      // Only a language the owner fixed: without one the page's recognition keeps to the visitor's own.
      ...(fixedLanguage(this.conv) ? { language: fixedLanguage(this.conv) } : {}),
      ...(role === 'visitor' && perceives(this.deps, this.conv.pal.definition, this.conv.pal.pipelineMode)
        ? {
            perception: {
              frames_url: `${this.deps.config.publicUrl}/v2/conversations/${this.conversationId}/frames`,
              interval_ms: FRAME_INTERVAL_MS,
            },
          }
        : {}),
      ...(recordingRequested(this.conv.properties) ? { recording: true } : {}),
      ...(transcript.length ? { transcript } : {}),
    });
    this.members.broadcast({ type: 'participant-joined', participant }, participant.participant_id);
    this.arm();
    let palJoined: Promise<void> | undefined;
    const palIsNew = !this.pal;
    if (!this.pal) {
      this.pal = new PalAgent(this.deps, this.conv, {
        send: (m) => this.fromPal(m),
        startedAt: this.marks.startedAt,
        // A room opened again (its instance stopped or died): the PAL goes on from what was said.
        transcript,
        audio: {
          sendAudio: (samples, sampleRate, viseme) => {
            this.recorder?.recorder.add('pal', samples, sampleRate);
            this.members.broadcastBinary(
              encodeAudioFrame({ kind: AudioFrameKind.palVoice, viseme: visemeIndex(viseme), sampleRate, samples }),
            );
          },
          flushAudio: () => this.members.broadcast({ type: 'audio-flush' }),
        },
        notice: (code, message) => this.members.broadcast({ type: 'notice', code, message }),
      });
      this.members.broadcast({ type: 'participant-joined', participant: this.pal.participant });
    }
    // The visitor's choice of voice or text holds from its first word (a greeting too) until switched.
    if (role === 'visitor') this.pal.setTextMode(joining.textMode === true);
    // The visitor's clock: times the PAL says are in the zone and written the way of the page they joined from.
    if (role === 'visitor') this.pal.setVisitorClock(joining.timeZone, joining.locale);
    // Whether the PAL can hear this visitor: its own recogniser, or the page's. It offers speech only then.
    if (role === 'visitor') this.pal.setHearing(PalAgent.transcribes(this.deps) || joining.speechRecognition !== false);
    // Only a conversation that had never started gets the join callbacks, disclosure and greeting.
    if (palIsNew) {
      this.faceShown = new FaceShown(this.deps.clock, faceToWaitFor(this.pal.participant, joining));
      const waitFrom = this.deps.clock.now().getTime();
      // How long greetings wait for faces, and how often the bound is what ends the wait (a page that failed to say so).
      void this.faceShown.shown.then(
        (by) =>
          by !== 'none' &&
          this.deps.log.info("the PAL's first line waited for its face", {
            conversation_id: this.conversationId,
            by,
            waited_ms: this.deps.clock.now().getTime() - waitFrom,
          }),
      );
      // A Daily conversation's start was claimed apart (its join callbacks with it): its PAL greets unless it has spoken.
      palJoined =
        this.conv.provider === 'daily'
          ? this.pal.join(transcript.length === 0, this.faceShown.shown, { joinCallbacks: false })
          : this.pal.join(!this.conv.startedAt, this.faceShown.shown);
    }
    // From here on the room reads this participant's frames, starting with those sent while it joined.
    const read = this.frames.reader(member);
    socket.on('message', read);
    for (const [data, isBinary] of backlog.handOff()) read(data, isBinary);
    await palJoined;
  }

  /** A PAL-side message pushed by an operator, or a client→PAL message to act on: the participants it reached, or null when the room is not live. */
  push(message: RoomMessage): number | null {
    if (!this.pal || this.closing) return null;
    if (CLIENT_TO_PAL.has(message.event_type)) {
      this.members.broadcast({ type: 'app-message', from: 'operator', data: message });
      this.pal.handle(message, { participantId: 'operator', userName: 'Operator' });
    } else {
      this.pal.push(message);
    }
    return this.participantCount;
  }

  /** A recorded canvas interaction: every participant sees it and the PAL reacts. */
  canvasInteraction(properties: Record<string, unknown>): void {
    const message = { message_type: 'canvas', event_type: 'canvas.interaction', conversation_id: this.conversationId, properties };
    this.members.broadcast({ type: 'app-message', from: 'service', data: message });
    this.pal?.canvasInteraction(properties);
  }

  /** Ends the conversation (idempotent): marks it ended, tells everyone why, closes, sends the end callbacks. */
  shutdown(reason: string): Promise<void> {
    this.closing ??= this.close(reason, true);
    return this.closing;
  }

  /**
   * This process is stopping: close the sockets but leave the conversation to the database and other
   * instances. `letGo` releases the room's claim once the PAL has stopped and its last words are stored,
   * before the participants are told to join again, so that their next join opens it elsewhere at once.
   */
  suspend(letGo?: () => Promise<void>): Promise<void> {
    this.closing ??= this.close('service restarting', false, letGo);
    return this.closing;
  }

  /** Whether the PAL's first line still waits for its face to be shown (for the room's tests and logs). */
  get waitingForFace(): boolean {
    return this.faceShown?.waiting ?? false;
  }

  private async close(reason: string, end: boolean, letGo?: () => Promise<void>): Promise<void> {
    this.deps.clock.clearTimeout(this.timer);
    // The call is over now: what follows (the database, the PAL stopping) does not lengthen its recording.
    const closedAt = this.deps.clock.now().getTime();
    const inEffect = end ? await markConversationEnded(this.deps, this.conversationId, reason).catch(() => reason) : reason;
    this.deps.log.info(end ? 'room ended' : 'room let go', {
      conversation_id: this.conversationId,
      reason: inEffect,
      participants: this.members.size,
    });
    // The PAL stops (what it would say is dropped), then its held first line is let go: stopping waits for it.
    const stopped = this.pal?.stop();
    this.faceShown?.open('closed');
    await stopped;
    const recording = await this.recording;
    await letGo?.().catch((error: unknown) =>
      this.deps.log.error('letting go of the room failed', {
        conversation_id: this.conversationId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    for (const member of this.members.values()) {
      if (end) this.members.sendTo(member, { type: 'ended', reason: inEffect });
      member.socket.close(end ? RoomCloseCode.ended : 1012, end ? 'conversation ended' : 'service restarting');
    }
    this.members.clear();
    this.onClosed(this);
    if (recording)
      await (end ? keepRecording(this.deps, recording, closedAt) : pauseRecording(recording, closedAt)).catch((error: unknown) =>
        this.deps.log.error('keeping the recording failed', {
          conversation_id: this.conversationId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    if (!end) return;
    // A failure here is retried by the hub's sweep (the claim is given back), so it is only logged.
    await finalizeConversation(this.deps, this.conversationId, inEffect).catch((error: unknown) =>
      this.deps.log.error('sending end callbacks failed', {
        conversation_id: this.conversationId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  private async startRecording(): Promise<LiveRecording | null> {
    try {
      this.recorder = await startRecording(this.deps, this.conv);
      return this.recorder;
    } catch (error) {
      this.deps.log.error('starting the recording failed', {
        conversation_id: this.conversationId,
        error: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }

  private leave(participantId: string): void {
    if (!this.members.delete(participantId) || this.closing) return;
    this.deps.log.info('participant left', {
      conversation_id: this.conversationId,
      participant_id: participantId,
      participants: this.members.size,
    });
    this.recordWhileVisited();
    this.pal?.left(participantId);
    this.members.broadcast({ type: 'participant-left', participant_id: participantId });
    if (this.members.size > 0) return;
    const now = this.deps.clock.now();
    this.marks.emptySince = now;
    this.deps.db
      .updateTable('conversations')
      .set({ live_empty_since: now })
      .where('conversation_id', '=', this.conversationId)
      .execute()
      .catch((error: unknown) =>
        this.deps.log.error('room state write failed', { conversation_id: this.conversationId, error: String(error) }),
      );
    this.arm();
  }

  /** A visitor who left for good (pressed End, or closed for flooding): with no other visitor, the conversation ends now. */
  private visitorGone(member: Member): void {
    const visitorsLeft = this.members.hasVisitor();
    if (member.participant.role === 'visitor' && !visitorsLeft) void this.shutdown(ShutdownReasons.participantLeftTimeout);
  }

  /** The recording covers only time with a visitor in the room: it stands still while nobody is there to hear. */
  private recordWhileVisited(): void {
    const visited = this.members.hasVisitor();
    if (visited) this.recorder?.recorder.resume();
    else this.recorder?.recorder.pause();
  }

  private fromPal(message: RoomMessage): void {
    this.turnLatencies.noteMessage(message);
    this.members.broadcast({ type: 'app-message', from: this.pal?.participant.participant_id ?? 'pal', data: message });
  }

  private participants(): Participant[] {
    return [...this.members.values()].map((m) => m.participant).concat(this.pal ? [this.pal.participant] : []);
  }

  /** (Re)arms the timer for the earliest deadline; the database holds the same marks for other instances. */
  private arm(): void {
    this.deps.clock.clearTimeout(this.timer);
    if (this.closing) return;
    const deadline = nextDeadline(this.marks, this.limits);
    const wait = deadline.at.getTime() - this.deps.clock.now().getTime();
    this.timer = this.deps.clock.setTimeout(
      () => (wait > MAX_TIMER_MS ? this.arm() : void this.shutdown(deadline.reason)),
      Math.min(Math.max(0, wait), MAX_TIMER_MS),
    );
    this.timer.unref();
  }
}

/** Messages a client sends to the PAL (the operator endpoint acts on them rather than relaying them as the PAL's). */
export const CLIENT_TO_PAL = new Set([
  'conversation.respond',
  'conversation.echo',
  'conversation.interrupt',
  'conversation.overwrite_llm_context',
  'conversation.append_llm_context',
  'conversation.sensitivity',
  'conversation.tool_result',
]);
