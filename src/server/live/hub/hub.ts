// The local rooms this instance holds, and the loop that keeps them honest with the database: a
// heartbeat for each room, ends requested on another instance, and deadlines or end callbacks of
// conversations whose room is held by no live instance (never joined, or its process died). On
// PostgreSQL several instances may serve one room: the first to be joined holds it (live_holder) and
// the others relay their participants to it (room-relay.ts); a holder that goes quiet is taken over
// (holders.ts). Conversations no live instance holds are settled by settle.ts.
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
import { RoomHolders } from './holders.js';
import { Settling } from './settle.js';

export class RoomHub {
  /** This process among the instances sharing the database (a new one each start). */
  get instanceId(): string {
    return this.deps.instanceId;
  }
  private readonly rooms = new Map<string, Room>();
  private readonly holders: RoomHolders;
  private readonly settling: Settling;
  private timer: ClockTimer | undefined;
  private polling: Promise<void> | null = null;
  private stopBus: (() => void) | undefined;
  private stopping = false;
  private channel: InstanceChannel | null = null;
  /** Present on PostgreSQL, where other instances may share the rooms; PGlite has one instance. */
  private relay: RoomRelay | null = null;
  /** The channel's readiness check, while it is registered. */
  private unready: (() => string | null) | undefined;

  constructor(private readonly deps: ServiceDeps) {
    const load = deps.metrics.instanceLoad;
    load.rooms = () => this.rooms.size;
    load.participants = () => [...this.rooms.values()].reduce((sum, room) => sum + room.participantCount, 0);
    load.relayedParticipants = () => this.relay?.relayedOut ?? 0;
    this.holders = new RoomHolders(deps, () => this.relay !== null);
    this.settling = new Settling(deps, {
      holders: this.holders,
      holds: (conversationId) => this.rooms.has(conversationId),
      running: () => this.stopBus !== undefined,
      endElsewhere: (holder, conversationId, reason) => this.relay?.end(holder, conversationId, reason),
    });
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
    let holder = here && !here.isClosing ? this.instanceId : await this.holders.claim(conv.conversationId);
    // The holder's heartbeat may be fresh while it is dead (killed): it is asked at once, and taken over when silent.
    if (this.relay && holder && holder !== this.instanceId && !(await this.relay.holderAlive(holder)))
      holder = await this.holders.takeOver(conv.conversationId, holder);
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
    const holder = await this.holders.liveHolderElsewhere(conversationId);
    return holder ? this.relay!.push(holder, conversationId, message) : null;
  }

  /** A recorded canvas interaction for the room wherever it is held. */
  async canvasInteraction(conversationId: string, record: Record<string, unknown>): Promise<void> {
    const here = this.rooms.get(conversationId);
    if (here) return here.canvasInteraction(record);
    const holder = await this.holders.liveHolderElsewhere(conversationId);
    if (holder) this.relay!.canvasInteraction(holder, conversationId, record);
  }

  /** The room held here for a relayed join, opened if this instance may hold it; null when another does. */
  private async holdRoom(conversationId: string): Promise<Room | null> {
    if (!this.stopBus) return null; // stopping: rooms here are being let go, not opened
    const here = this.rooms.get(conversationId);
    if (here && !here.isClosing) return here;
    if ((await this.holders.claim(conversationId)) !== this.instanceId) return null;
    const conv = await loadLiveConversation(this.deps.db, conversationId);
    return conv && conv.status === 'active' ? this.open(conv) : null;
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
        {
          holdRoom: (id) => this.holdRoom(id),
          room: (id) => this.rooms.get(id),
          holderGone: (holder, ids) => this.holders.letGo(holder, ids),
        },
        log,
        this.deps.metrics,
        this.deps.clock,
      );
    }
    this.stopBus = this.deps.bus.on('conversation.ended', ({ conversationId, reason }) => {
      const room = this.rooms.get(conversationId);
      if (!room && this.settling.isEnding(conversationId)) return;
      const done = room ? room.shutdown(reason) : this.settling.settleEnded(conversationId);
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
    const letGo = (id: string) => () => this.holders.release([id]);
    await Promise.all([...this.rooms.values()].map((room) => room.suspend(this.relay ? letGo(room.conversationId) : undefined)));
    // Let go of the rooms at once, so that their participants' next join takes them over elsewhere.
    await this.holders.release(held);
    await this.channel?.close();
    if (this.unready) this.deps.lifecycle.readiness.delete(this.unready);
  }

  async poll(): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const held = [...this.rooms.keys()];
    if (held.length) {
      const rows = await this.holders.beat(held, now);
      for (const row of rows)
        if (row.status === 'ended')
          void this.rooms.get(row.conversation_id)?.shutdown(row.shutdown_reason ?? ShutdownReasons.endEndpointHit);
      // Another instance took over a room this one went quiet on: its participants here join again there.
      const kept = new Set(rows.map((r) => r.conversation_id));
      for (const id of held) if (!kept.has(id)) void this.rooms.get(id)?.suspend();
    }
    if (this.relay) await this.checkRelayedRooms();
    await this.settling.settleDue(now, held);
    await db
      .deleteFrom('canvas_interaction_rate')
      .where('window_start', '<', new Date(now.getTime() - 5 * 60_000))
      .execute();
  }

  /** Participants here whose room's holder went quiet or changed join again; holders hear who is still here. */
  private async checkRelayedRooms(): Promise<void> {
    const relay = this.relay!;
    relay.keepAlive();
    relay.dropQuiet(this.holders.staleAfterMs);
    const relayed = relay.relayedRooms();
    if (!relayed.size) return;
    const rows = await this.deps.db
      .selectFrom('conversations')
      .select(['conversation_id', 'live_holder', 'live_heartbeat_at'])
      .where('conversation_id', 'in', [...relayed.keys()])
      .execute();
    for (const row of rows) {
      if (row.live_holder !== relayed.get(row.conversation_id) || !this.holders.fresh(row.live_heartbeat_at))
        relay.disconnect(row.conversation_id);
    }
  }
}

/** The hub of this service (routes and the WebSocket server share it). */
export const hubFor = onePer((deps: ServiceDeps) => new RoomHub(deps));
