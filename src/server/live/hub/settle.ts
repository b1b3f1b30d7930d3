// Conversations whose room no live instance holds (never joined, or its process died): the hub's poll
// ends those past a deadline and sends the end callbacks of those ended, once, a batch at a time.
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import { deadlinePassedSql, nextDeadline, roomLimits } from '../../resources/conversations/limits.js';
import type { ConversationRow } from '../../resources/conversations/repository.js';
import { finalizeConversation, markConversationEnded } from '../room/finalize.js';
import type { RoomHolders } from './holders.js';

/** What deciding a conversation's end takes (see settleRow). */
const SETTLE_COLUMNS = [
  'status',
  'provider',
  'created_at',
  'properties',
  'live_started_at',
  'live_empty_since',
  'live_heartbeat_at',
  'live_finalized_at',
  'live_holder',
  'shutdown_reason',
] as const;

/** Conversations read at once (each settled with a turn of the event loop after it), and batches per poll (see settleDue). */
export const SETTLE_BATCH = 25;
const SETTLE_BATCHES_PER_POLL = 1000;

/** What settling sees of the hub. */
export interface SettlingHub {
  readonly holders: RoomHolders;
  /** Whether a room of this conversation is open here: it settles its own end. */
  holds(conversationId: string): boolean;
  /** The hub still runs: a poll goes on to its next batch. */
  running(): boolean;
  /** An end asked for here, of a room another live instance holds: that instance is told at once. */
  endElsewhere(holder: string, conversationId: string, reason: string): void;
}

export class Settling {
  /** Conversations the poll is ending itself: it finalizes them next, so their announced end is not settled twice. */
  private readonly ending = new Set<string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly hub: SettlingHub,
  ) {}

  /** Whether the poll is ending this conversation itself (its end on the bus is then not settled again). */
  isEnding(conversationId: string): boolean {
    return this.ending.has(conversationId);
  }

  /**
   * The conversations no room here holds that have something to do: ended but not yet finalized, or
   * past a deadline, and held by no instance alive (settleRow decides each again). Read SETTLE_BATCH
   * at a time in the order of their ids and settled with a turn of the event loop after each:
   * 10,000 that expire together (a flood of starts nobody joined) were settled in one go before, and
   * the service answered nothing else meanwhile (/healthz failed, a live room's reply took 6.7 s).
   * At most SETTLE_BATCHES_PER_POLL batches per poll; the next poll goes on.
   */
  async settleDue(now: Date, held: string[]): Promise<void> {
    const { db } = this.deps;
    const staleBefore = new Date(now.getTime() - this.hub.holders.staleAfterMs);
    let after = '';
    for (let batch = 0; batch < SETTLE_BATCHES_PER_POLL; batch++) {
      let query = db
        .selectFrom('conversations')
        .select(['conversation_id', ...SETTLE_COLUMNS])
        .where('provider', '=', 'local')
        .where('live_finalized_at', 'is', null)
        .where((eb) =>
          eb.and([
            eb.or([eb('live_heartbeat_at', 'is', null), eb('live_heartbeat_at', '<=', staleBefore)]),
            eb.or([eb('status', '=', 'ended'), deadlinePassedSql(now)]),
          ]),
        )
        .where('conversation_id', '>', after)
        .orderBy('conversation_id')
        .limit(SETTLE_BATCH);
      if (held.length) query = query.where('conversation_id', 'not in', held);
      const rows = await query.execute();
      for (const row of rows) {
        await this.settleRow(row.conversation_id, row).catch((error: unknown) =>
          this.deps.log.error('settling a conversation failed', {
            conversation_id: row.conversation_id,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
        // One conversation's end is a dozen statements (25 ms on a loaded machine): the event loop gets
        // a turn after each, so requests wait for one, not for a batch (p95 of /healthz 780 ms per batch).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (rows.length < SETTLE_BATCH || !this.hub.running()) return;
      after = rows[rows.length - 1]!.conversation_id;
    }
  }

  /** An end asked for on this instance, of a conversation no room here holds. */
  async settleEnded(conversationId: string): Promise<void> {
    const row = await this.deps.db
      .selectFrom('conversations')
      .select(SETTLE_COLUMNS)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (row) await this.settleRow(conversationId, row, true);
  }

  /** For a conversation no room here holds: end it when a deadline passed, send its end callbacks once ended. */
  private async settleRow(
    conversationId: string,
    row: Pick<ConversationRow, (typeof SETTLE_COLUMNS)[number]>,
    endRequested = false,
  ): Promise<void> {
    if (this.hub.holds(conversationId) || row.provider !== 'local' || row.live_finalized_at) return;
    const now = this.deps.clock.now();
    if (this.hub.holders.fresh(row.live_heartbeat_at)) {
      // Another instance holds it: an end asked for here reaches it at once (its heartbeat would see it too).
      if (endRequested && row.status === 'ended' && row.live_holder && row.live_holder !== this.hub.holders.instanceId)
        this.hub.endElsewhere(row.live_holder, conversationId, row.shutdown_reason ?? ShutdownReasons.endEndpointHit);
      return;
    }
    if (row.status === 'active') {
      // A room that died with its process counts as left when its last heartbeat was.
      const emptySince = row.live_empty_since ?? (row.live_started_at ? (row.live_heartbeat_at ?? row.live_started_at) : null);
      const deadline = nextDeadline(
        { createdAt: row.created_at, startedAt: row.live_started_at, emptySince },
        roomLimits(row.properties ?? {}),
      );
      if (deadline.at > now) return;
      // Its end is announced on the bus (other listeners hear it); the settling is this function's, just below.
      this.ending.add(conversationId);
      try {
        await markConversationEnded(this.deps, conversationId, deadline.reason);
      } finally {
        this.ending.delete(conversationId);
      }
    }
    await finalizeConversation(this.deps, conversationId);
  }
}
