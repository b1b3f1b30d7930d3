// The local rooms this instance holds, and the loop that keeps them honest with the database: a
// heartbeat for each room, ends requested on another instance, and deadlines or end callbacks of
// conversations whose room is held by no live instance (never joined, or its process died).
import { ShutdownReasons } from '../../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../../context.js';
import type { LiveConversation } from './live-conversation.js';
import { Room } from './room.js';
import { finalizeConversation, markConversationEnded } from './room-end.js';
import { nextDeadline, roomLimits } from './room-limits.js';
import type { ConversationRow } from '../repository.js';

/** What deciding whether to settle a conversation reads. */
const SETTLE_COLUMNS = ['status', 'provider', 'created_at', 'properties', 'live_started_at', 'live_empty_since', 'live_heartbeat_at', 'live_finalized_at'] as const;

export class RoomHub {
  private readonly rooms = new Map<string, Room>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  private stopBus: (() => void) | undefined;

  constructor(private readonly deps: ServiceDeps) {}

  get(conversationId: string): Room | undefined {
    return this.rooms.get(conversationId);
  }

  /** The room of this conversation on this instance, opened if needed. */
  open(conv: LiveConversation): Room {
    let room = this.rooms.get(conv.conversationId);
    if (!room || room.isClosing) {
      room = new Room(this.deps, conv, (closed) => {
        if (this.rooms.get(closed.conversationId) === closed) this.rooms.delete(closed.conversationId);
      });
      this.rooms.set(conv.conversationId, room);
    }
    return room;
  }

  start(): void {
    this.stopBus = this.deps.bus.on('conversation.ended', ({ conversationId, reason }) => {
      const room = this.rooms.get(conversationId);
      const done = room ? room.shutdown(reason) : this.settle(conversationId);
      done.catch((error: unknown) => this.deps.log.error('ending a room failed', { conversation_id: conversationId, error: String(error) }));
    });
    const tick = () => {
      this.polling = this.poll()
        .catch((error: unknown) => this.deps.log.error('room poll failed', { error: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          this.polling = null;
          if (this.stopBus) this.timer = setTimeout(tick, this.deps.config.room.pollMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopBus?.();
    this.stopBus = undefined;
    clearTimeout(this.timer);
    await this.polling;
    await Promise.all([...this.rooms.values()].map((room) => room.suspend()));
  }

  /** A room on another instance is alive while its heartbeat is this fresh. */
  private get staleAfterMs(): number {
    return this.deps.config.room.pollMs * 3 + 1000;
  }

  async poll(): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const held = [...this.rooms.keys()];
    if (held.length) {
      const rows = await db.updateTable('conversations').set({ live_heartbeat_at: now }).where('conversation_id', 'in', held)
        .returning(['conversation_id', 'status', 'shutdown_reason']).execute();
      for (const row of rows) if (row.status === 'ended') void this.rooms.get(row.conversation_id)?.shutdown(row.shutdown_reason ?? ShutdownReasons.endEndpointHit);
    }
    let query = db.selectFrom('conversations').select(['conversation_id', ...SETTLE_COLUMNS]).where('provider', '=', 'local').where('live_finalized_at', 'is', null);
    if (held.length) query = query.where('conversation_id', 'not in', held);
    for (const row of await query.execute()) {
      // Most are calls waiting for their visitor: read once here, not again one by one on every poll.
      if (!this.settleStep(row, now)) continue;
      const conversation_id = row.conversation_id;
      await this.settle(conversation_id).catch((error: unknown) =>
        this.deps.log.error('settling a conversation failed', { conversation_id, error: error instanceof Error ? error.message : String(error) }),
      );
    }
    await db.deleteFrom('canvas_interaction_rate').where('window_start', '<', new Date(now.getTime() - 5 * 60_000)).execute();
  }

  /** For a conversation no room here holds: end it when a deadline passed, send its end callbacks once ended. */
  private async settle(conversationId: string): Promise<void> {
    if (this.rooms.has(conversationId)) return;
    const row = await this.deps.db.selectFrom('conversations').select(SETTLE_COLUMNS).where('conversation_id', '=', conversationId).executeTakeFirst();
    const step = row ? this.settleStep(row, this.deps.clock.now()) : null;
    if (!step) return;
    if (step !== 'finalize') await markConversationEnded(this.deps, conversationId, step.end);
    await finalizeConversation(this.deps, conversationId);
  }

  /** What settling the conversation does now: nothing, end it (a deadline passed) and send its end callbacks, or only send them (it ended). */
  private settleStep(row: Pick<ConversationRow, (typeof SETTLE_COLUMNS)[number]>, now: Date): { end: string } | 'finalize' | null {
    if (row.provider !== 'local' || row.live_finalized_at) return null;
    if (row.live_heartbeat_at && now.getTime() - row.live_heartbeat_at.getTime() < this.staleAfterMs) return null; // another instance holds it
    if (row.status !== 'active') return 'finalize';
    // A room that died with its process counts as left when its last heartbeat was.
    const emptySince = row.live_empty_since ?? (row.live_started_at ? row.live_heartbeat_at ?? row.live_started_at : null);
    const deadline = nextDeadline({ createdAt: row.created_at, startedAt: row.live_started_at, emptySince }, roomLimits(row.properties ?? {}));
    return deadline.at > now ? null : { end: deadline.reason };
  }
}

const hubs = new WeakMap<ServiceDeps, RoomHub>();

/** The hub of this service (routes and the WebSocket server share it). */
export function hubFor(deps: ServiceDeps): RoomHub {
  let hub = hubs.get(deps);
  if (!hub) hubs.set(deps, (hub = new RoomHub(deps)));
  return hub;
}
