// The local rooms this instance holds, and the loop that keeps them honest with the database: a
// heartbeat for each room, ends requested on another instance, and deadlines or end callbacks of
// conversations whose room is held by no live instance (never joined, or its process died). On
// PostgreSQL several instances may serve one room: the first to be joined holds it (live_holder) and
// the others relay their participants to it (room-relay.ts); a holder that goes quiet is taken over.
import type { WebSocket } from 'ws';
import type { ClockTimer } from '../../platform/time.js';
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { openPostgresChannel, type InstanceChannel } from '../cluster/instance-channel.js';
import { loadLiveConversation, type LiveConversation } from '../../resources/conversations/live-conversation.js';
import { Room } from '../room/room.js';
import type { JoinBacklog } from '../room/join-backlog.js';
import type { RoomMessage } from '../agent/app-message.js';
import { ROOM_MOVED, RoomRelay, type RelayedJoin } from '../cluster/room-relay.js';
import { finalizeConversation, markConversationEnded } from '../room/finalize.js';
import { deadlinePassedSql, nextDeadline, roomLimits } from '../../resources/conversations/limits.js';
import type { ConversationRow } from '../../resources/conversations/repository.js';

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

export class RoomHub {
  /** This process among the instances sharing the database (a new one each start). */
  get instanceId(): string {
    return this.deps.instanceId;
  }
  private readonly rooms = new Map<string, Room>();
  private timer: ClockTimer | undefined;
  private polling: Promise<void> | null = null;
  private stopBus: (() => void) | undefined;
  private stopping = false;
  private channel: InstanceChannel | null = null;
  /** Present on PostgreSQL, where other instances may share the rooms; PGlite has one instance. */
  private relay: RoomRelay | null = null;
  /** The channel's readiness check, while it is registered. */
  private unready: (() => string | null) | undefined;
  /** Conversations the poll is ending itself: it finalizes them next, so their announced end is not settled twice. */
  private readonly ending = new Set<string>();

  constructor(private readonly deps: ServiceDeps) {
    const load = deps.metrics.instanceLoad;
    load.rooms = () => this.rooms.size;
    load.participants = () => [...this.rooms.values()].reduce((sum, room) => sum + room.participantCount, 0);
    load.relayedParticipants = () => this.relay?.relayedOut ?? 0;
  }

  /**
   * A participant whose token was checked joins: in the room here when this instance holds it (taking
   * it when nobody live does), otherwise through the relay to the instance that does.
   */
  async join(socket: WebSocket, conv: LiveConversation, joining: RelayedJoin, backlog: JoinBacklog): Promise<void> {
    const { role, ...admitting } = joining;
    // Stopping: a join that got in before the upgrade listener went is told to join again elsewhere.
    if (this.stopping) return void socket.close(ROOM_MOVED, 'service restarting');
    const here = this.rooms.get(conv.conversationId);
    let holder = here && !here.isClosing ? this.instanceId : await this.claim(conv.conversationId);
    // The holder's heartbeat may be fresh while it is dead (killed): it is asked at once, and taken over when silent.
    if (this.relay && holder && holder !== this.instanceId && !(await this.relay.holderAlive(holder)))
      holder = await this.takeOver(conv.conversationId, holder);
    if (this.relay && holder && holder !== this.instanceId) {
      this.deps.log.info("participant relayed to the room's holder", {
        conversation_id: conv.conversationId,
        holder_instance: holder,
        role,
      });
      return this.relay.join(holder, socket, conv.conversationId, joining, backlog);
    }
    await this.open(conv).admit(socket, role, admitting, backlog);
  }

  /** An operator's event for the room wherever it is held: the participants it reached, or null when the room is not live. */
  async push(conversationId: string, message: RoomMessage): Promise<number | null> {
    const here = this.rooms.get(conversationId);
    if (here) return here.push(message);
    const holder = await this.liveHolderElsewhere(conversationId);
    return holder ? this.relay!.push(holder, conversationId, message) : null;
  }

  /** A recorded canvas interaction for the room wherever it is held. */
  async canvasInteraction(conversationId: string, record: Record<string, unknown>): Promise<void> {
    const here = this.rooms.get(conversationId);
    if (here) return here.canvasInteraction(record);
    const holder = await this.liveHolderElsewhere(conversationId);
    if (holder) this.relay!.canvasInteraction(holder, conversationId, record);
  }

  /**
   * Takes the room for this instance unless another live instance holds it; answers the holder. With
   * one instance (PGlite) it is always this one, even just after a restart with the old heartbeat fresh.
   */
  private async claim(conversationId: string): Promise<string | null> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const staleBefore = new Date(now.getTime() - this.staleAfterMs);
    const claimed = await db
      .updateTable('conversations')
      .set({ live_holder: this.instanceId, live_heartbeat_at: now })
      .where('conversation_id', '=', conversationId)
      .$if(this.relay !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('live_holder', 'is', null),
            eb('live_holder', '=', this.instanceId),
            eb('live_heartbeat_at', 'is', null),
            eb('live_heartbeat_at', '<', staleBefore),
          ]),
        ),
      )
      .returning('conversation_id')
      .executeTakeFirst();
    if (claimed) return this.instanceId;
    const row = await db.selectFrom('conversations').select('live_holder').where('conversation_id', '=', conversationId).executeTakeFirst();
    return row?.live_holder ?? null;
  }

  /** Takes the room from a holder that does not answer (unless another took it meanwhile); answers the holder now. */
  private async takeOver(conversationId: string, silent: string): Promise<string | null> {
    const now = this.deps.clock.now();
    const taken = await this.deps.db
      .updateTable('conversations')
      .set({ live_holder: this.instanceId, live_heartbeat_at: now })
      .where('conversation_id', '=', conversationId)
      .where('live_holder', '=', silent)
      .returning('conversation_id')
      .executeTakeFirst();
    if (taken) {
      this.deps.log.info('room taken over from a holder that does not answer', {
        conversation_id: conversationId,
        holder_instance: silent,
      });
      return this.instanceId;
    }
    return this.claim(conversationId);
  }

  /** A holder stopped answering the relay: its claim on these rooms is let go, so that the next join takes them. */
  private async letGo(silent: string, conversationIds: string[]): Promise<void> {
    if (!conversationIds.length) return;
    await this.deps.db
      .updateTable('conversations')
      .set({ live_holder: null })
      .where('conversation_id', 'in', conversationIds)
      .where('live_holder', '=', silent)
      .execute();
  }

  /** The room held here for a relayed join, opened if this instance may hold it; null when another does. */
  private async holdRoom(conversationId: string): Promise<Room | null> {
    if (!this.stopBus) return null; // stopping: rooms here are being let go, not opened
    const here = this.rooms.get(conversationId);
    if (here && !here.isClosing) return here;
    if ((await this.claim(conversationId)) !== this.instanceId) return null;
    const conv = await loadLiveConversation(this.deps.db, conversationId);
    return conv && conv.status === 'active' ? this.open(conv) : null;
  }

  /** The live instance other than this one that holds the room, if any. */
  private async liveHolderElsewhere(conversationId: string): Promise<string | null> {
    if (!this.relay) return null;
    const row = await this.deps.db
      .selectFrom('conversations')
      .select(['live_holder', 'live_heartbeat_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (!row?.live_holder || row.live_holder === this.instanceId || !this.fresh(row.live_heartbeat_at)) return null;
    return row.live_holder;
  }

  private fresh(heartbeat: Date | null): boolean {
    return heartbeat !== null && this.deps.clock.now().getTime() - heartbeat.getTime() < this.staleAfterMs;
  }

  /** Whether a room of this conversation is open on this instance (it sends the end callbacks when it closes). */
  holds(conversationId: string): boolean {
    return this.rooms.has(conversationId);
  }

  /** The room of this conversation on this instance, opened if needed. */
  open(conv: LiveConversation): Room {
    let room = this.rooms.get(conv.conversationId);
    if (!room || room.isClosing) {
      room = new Room(this.deps, conv, (closed) => {
        if (this.rooms.get(closed.conversationId) === closed) this.rooms.delete(closed.conversationId);
      });
      this.rooms.set(conv.conversationId, room);
      // Opened again (another instance held it, or this one before a restart): the PAL goes on from the transcript.
      this.deps.log.info('room opened', { conversation_id: conv.conversationId, reopened: conv.startedAt !== null });
    }
    return room;
  }

  async start(): Promise<void> {
    const { config, dbKind, log } = this.deps;
    if (dbKind === 'postgres' && config.databaseUrl) {
      const { metrics, lifecycle } = this.deps;
      const channel = await openPostgresChannel(config.databaseUrl, this.instanceId, (message) => this.relay?.receive(message), {
        log,
        clock: this.deps.clock,
        onShed: (kind, payloads) => metrics.relayShed.inc({ kind }, payloads),
      });
      this.channel = channel;
      metrics.relayQueue.bytes = () => channel.queuedBytes;
      metrics.relayQueue.sheddingParticipants = () => channel.sheddingParticipants;
      this.unready = () => {
        if (!channel.ready) return 'the room channel to the other instances is reconnecting';
        const shedding = channel.sheddingParticipants;
        return shedding ? `the room channel is past its capacity: ${shedding} relayed participants lost audio in the last 10 s` : null;
      };
      lifecycle.readiness.add(this.unready);
      this.relay = new RoomRelay(
        this.channel,
        { holdRoom: (id) => this.holdRoom(id), room: (id) => this.rooms.get(id), holderGone: (holder, ids) => this.letGo(holder, ids) },
        log,
        this.deps.metrics,
        this.deps.clock,
      );
    }
    this.stopBus = this.deps.bus.on('conversation.ended', ({ conversationId, reason }) => {
      const room = this.rooms.get(conversationId);
      if (!room && this.ending.has(conversationId)) return;
      const done = room ? room.shutdown(reason) : this.settleEnded(conversationId);
      done.catch((error: unknown) =>
        this.deps.log.error('ending a room failed', { conversation_id: conversationId, error: String(error) }),
      );
    });
    const tick = () => {
      this.polling = this.poll()
        .catch((error: unknown) =>
          this.deps.log.error('room poll failed', { error: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          this.polling = null;
          if (this.stopBus) this.timer = this.deps.clock.setTimeout(tick, this.deps.config.room.pollMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopBus?.();
    this.stopBus = undefined;
    this.deps.clock.clearTimeout(this.timer);
    await this.polling;
    this.relay?.stop();
    const held = [...this.rooms.keys()];
    // Each room lets go of its claim as soon as its PAL has stopped, before its participants are told to
    // join again: their next join (0.1-0.2 s later) finds it free rather than relayed to this instance.
    const letGo = (id: string) => async () =>
      void (await this.deps.db
        .updateTable('conversations')
        .set({ live_holder: null })
        .where('conversation_id', '=', id)
        .where('live_holder', '=', this.instanceId)
        .execute());
    await Promise.all([...this.rooms.values()].map((room) => room.suspend(this.relay ? letGo(room.conversationId) : undefined)));
    // Let go of the rooms at once, so that their participants' next join takes them over elsewhere.
    if (held.length)
      await this.deps.db
        .updateTable('conversations')
        .set({ live_holder: null })
        .where('conversation_id', 'in', held)
        .where('live_holder', '=', this.instanceId)
        .execute();
    await this.channel?.close();
    if (this.unready) this.deps.lifecycle.readiness.delete(this.unready);
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
      const rows = await db
        .updateTable('conversations')
        .set({ live_heartbeat_at: now, live_holder: this.instanceId })
        .where('conversation_id', 'in', held)
        .where((eb) => eb.or([eb('live_holder', 'is', null), eb('live_holder', '=', this.instanceId)]))
        .returning(['conversation_id', 'status', 'shutdown_reason'])
        .execute();
      for (const row of rows)
        if (row.status === 'ended')
          void this.rooms.get(row.conversation_id)?.shutdown(row.shutdown_reason ?? ShutdownReasons.endEndpointHit);
      // Another instance took over a room this one went quiet on: its participants here join again there.
      const kept = new Set(rows.map((r) => r.conversation_id));
      for (const id of held) if (!kept.has(id)) void this.rooms.get(id)?.suspend();
    }
    if (this.relay) await this.checkRelayedRooms();
    await this.settleDue(now, held);
    await db
      .deleteFrom('canvas_interaction_rate')
      .where('window_start', '<', new Date(now.getTime() - 5 * 60_000))
      .execute();
  }

  /**
   * The conversations no room here holds that have something to do: ended but not yet finalized, or
   * past a deadline, and held by no instance alive (settleRow decides each again). Read SETTLE_BATCH
   * at a time in the order of their ids and settled with a turn of the event loop after each:
   * 10,000 that expire together (a flood of starts nobody joined) were settled in one go before, and
   * the service answered nothing else meanwhile (/healthz failed, a live room's reply took 6.7 s).
   * At most SETTLE_BATCHES_PER_POLL batches per poll; the next poll goes on.
   */
  private async settleDue(now: Date, held: string[]): Promise<void> {
    const { db } = this.deps;
    const staleBefore = new Date(now.getTime() - this.staleAfterMs);
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
      if (rows.length < SETTLE_BATCH || !this.stopBus) return;
      after = rows[rows.length - 1]!.conversation_id;
    }
  }

  /** Participants here whose room's holder went quiet or changed join again; holders hear who is still here. */
  private async checkRelayedRooms(): Promise<void> {
    const relay = this.relay!;
    relay.keepAlive();
    relay.dropQuiet(this.staleAfterMs);
    const relayed = relay.relayedRooms();
    if (!relayed.size) return;
    const rows = await this.deps.db
      .selectFrom('conversations')
      .select(['conversation_id', 'live_holder', 'live_heartbeat_at'])
      .where('conversation_id', 'in', [...relayed.keys()])
      .execute();
    for (const row of rows) {
      if (row.live_holder !== relayed.get(row.conversation_id) || !this.fresh(row.live_heartbeat_at)) relay.disconnect(row.conversation_id);
    }
  }

  /** An end asked for on this instance, of a conversation no room here holds. */
  private async settleEnded(conversationId: string): Promise<void> {
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
    if (this.rooms.has(conversationId) || row.provider !== 'local' || row.live_finalized_at) return;
    const now = this.deps.clock.now();
    if (this.fresh(row.live_heartbeat_at)) {
      // Another instance holds it: an end asked for here reaches it at once (its heartbeat would see it too).
      if (endRequested && row.status === 'ended' && row.live_holder && row.live_holder !== this.instanceId)
        this.relay?.end(row.live_holder, conversationId, row.shutdown_reason ?? ShutdownReasons.endEndpointHit);
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

/** The hub of this service (routes and the WebSocket server share it). */
export const hubFor = onePer((deps: ServiceDeps) => new RoomHub(deps));
