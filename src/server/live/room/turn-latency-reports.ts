// What the visitors' pages measured of the PAL's replies in one room: counted only for a reply made
// here, once each (RoomReplies), observed on /metrics and stored in the order the pages sent them.
import type { TurnLatencyFrame } from '../../../protocol/room.js';
import type { ServiceDeps } from '../../platform/context.js';
import { RoomReplies, observeTurnLatency, storeTurnLatency } from '../../resources/conversations/turn-latency.js';
import type { RoomMessage } from '../agent/app-message.js';
import type { Member } from './members.js';

export class TurnLatencyReports {
  /** The PAL's replies here, which the visitors' latency reports must name (each once). */
  private readonly replies = new RoomReplies();
  /** The reports' writes, one after another: stored in the order the page sent them (a pool's connections would race). */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly conversationId: string,
  ) {}

  /** A message the PAL sent: a reply a later report may name. */
  noteMessage(message: RoomMessage): void {
    this.replies.noteMessage(message, this.deps.clock.now().getTime());
  }

  /** A visitor's report; others, and reports of no reply made here, are dropped quietly. */
  report(member: Member, frame: TurnLatencyFrame): void {
    if (member.participant.role !== 'visitor' || !this.replies.accept(frame, this.deps.clock.now().getTime())) return;
    observeTurnLatency(this.deps.metrics, frame);
    this.writes = this.writes
      .then(() => storeTurnLatency(this.deps.db, this.conversationId, frame))
      .catch((error: unknown) =>
        this.deps.log.error('storing a turn latency failed', {
          conversation_id: this.conversationId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
  }
}
