// Local rooms across service instances. One instance holds each room (its PAL, recording and timers);
// a participant whose WebSocket reached another instance stays connected there, and that instance
// relays its frames to the holder and the holder's frames back, over the instance channel. No sticky
// sessions: any instance can take any join. Instances also tell each other their participants are
// still there, so a room notices participants lost with a dead instance.
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock, type ClockTimer } from '../../platform/time.js';
import type { RawData, WebSocket } from 'ws';
import type { Logger } from '../../platform/log.js';
import type { InstanceChannel } from './instance-channel.js';
import { RelayedSocket } from './relayed-socket.js';
import { countRefused, ParticipantBudget } from '../room/participant-budget.js';
import { RoomCloseCode } from '../../../protocol/room.js';
import type { ServiceMetrics } from '../../platform/metrics.js';
import { sendBounded } from '../room/unsent-output.js';
import type { Room } from '../room/room.js';
import type { JoinBacklog } from '../room/join-backlog.js';
import type { RoomMessage } from '../agent/app-message.js';
import { HolderLiveness, HOLDER_QUIET_MS } from './holder-liveness.js';

/** What a relayed join carries: who joins, as the room's admit takes it. */
export interface RelayedJoin {
  role: 'visitor' | 'operator';
  userName?: string | undefined;
  token: string;
  textMode: boolean;
  /** The page's IANA time zone and language tag, as the join frame gave them. */
  timeZone?: string | undefined;
  locale?: string | undefined;
  /** The page sends `face-ready` once the PAL's face is shown: the PAL's first line waits for it (room/face-shown.ts). */
  faceReady?: boolean | undefined;
  /** Whether the page's browser recognises speech (false: it cannot; absent: not said). */
  speechRecognition?: boolean | undefined;
}

/** The hub's side of the relay: its rooms on this instance. */
export interface RelayHost {
  /** The room this instance holds for the conversation, opened if this instance may hold it; null otherwise. */
  holdRoom(conversationId: string): Promise<Room | null>;
  room(conversationId: string): Room | undefined;
  /** The holder of these rooms stopped answering (holder-liveness.ts): let go of its claim before its participants here join again. */
  holderGone?(holder: string, conversationIds: string[]): Promise<void>;
}

/** Close code sent to a participant whose room moved to another instance: join again. */
export const ROOM_MOVED = 1012;
const MOVED_REASON = 'the room moved; join again';
const PUSH_TIMEOUT_MS = 3_000;
/** A budget unused this long has refilled whole: forgetting it refills nothing. */
const BUDGET_IDLE_MS = 60_000;

interface Outgoing {
  socket: WebSocket;
  conversationId: string;
  holder: string;
}

export class RoomRelay {
  private sequence = 0;
  /** Participants connected here whose room another instance holds. */
  private readonly outgoing = new Map<string, Outgoing>();
  /** Participants connected to other instances, in rooms held here. */
  private readonly incoming = new Map<string, { socket: RelayedSocket; from: string }>();
  private readonly pushes = new Map<string, (participants: number | null) => void>();
  /** The budgets of participants connected here, per room and meeting token: joining again does not refill one. */
  private readonly budgets = new Map<string, { budget: ParticipantBudget; usedAt: number }>();
  /** Whether the holders of rooms relayed to answer, asked over the channel (a killed one keeps a fresh heartbeat). */
  private readonly liveness: HolderLiveness;
  private watch: ClockTimer | undefined;
  private stopped = false;

  constructor(
    private readonly channel: InstanceChannel,
    private readonly host: RelayHost,
    private readonly log: Logger,
    private readonly metrics: ServiceMetrics,
    /** The service's clock: budgets, keep-alives, the wait for a pushed event's answer. */
    private readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'> = systemClock,
  ) {
    this.liveness = new HolderLiveness(
      (instance) => this.channel.send(instance, { k: 'ping', from: this.instanceId }),
      () => this.channel.ready,
      clock,
    );
  }

  private readonly now = () => this.clock.now().getTime();

  get instanceId(): string {
    return this.channel.instanceId;
  }

  /** Participants connected here whose room another instance holds. */
  get relayedOut(): number {
    return this.outgoing.size;
  }

  // ——— On the instance a participant connected to ———

  /** Whether the room's holder answers now (asked over the channel at a join: its heartbeat may be fresh while it is dead). */
  holderAlive(holder: string): Promise<boolean> {
    return this.liveness.alive(holder);
  }

  /**
   * Pings the holders of the participants relayed from here whenever they have been quiet a moment; the
   * participants of one that does not answer join again (its claim let go first, so that they take it over).
   */
  private watchHolders(): void {
    if (this.stopped || this.watch) return;
    this.watch = this.clock.setTimeout(() => {
      const rooms = new Map<string, string[]>();
      for (const o of this.outgoing.values()) rooms.set(o.holder, [...new Set([...(rooms.get(o.holder) ?? []), o.conversationId])]);
      const dead = this.liveness.check(rooms.keys());
      this.liveness.prune(new Set(rooms.keys()));
      void Promise.all(
        dead.map(async (holder) => {
          const ids = rooms.get(holder) ?? [];
          this.log.info("a room's holder does not answer; its participants here join again", {
            holder_instance: holder,
            conversation_ids: ids,
          });
          await this.host.holderGone?.(holder, ids).catch((error: unknown) =>
            this.log.error("letting go of a silent holder's rooms failed", {
              holder_instance: holder,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
          for (const id of ids) this.disconnect(id);
        }),
      ).finally(() => {
        this.watch = undefined;
        // Watched while participants are relayed from here.
        if (this.outgoing.size) this.watchHolders();
      });
    }, HOLDER_QUIET_MS);
    this.watch.unref();
  }

  /** Hands a checked join to the room's holder and relays the participant's traffic from now on. */
  join(holder: string, socket: WebSocket, conversationId: string, joining: RelayedJoin, backlog: JoinBacklog): void {
    const m = `${this.instanceId}.${++this.sequence}`;
    this.outgoing.set(m, { socket, conversationId, holder });
    this.watchHolders();
    this.channel.send(holder, { k: 'join', c: conversationId, m, from: this.instanceId, ...joining }, { source: m });
    // The budget holds here too, so that a flood never reaches the instance channel.
    const budget = this.budgetOf(`${conversationId} ${joining.token}`);
    let flooded = false;
    const forward = (data: RawData | string, isBinary: boolean) => {
      if (!this.outgoing.has(m)) return;
      budget.usedAt = this.now();
      const verdict = budget.budget.admit(data, isBinary);
      if (!verdict.ok) {
        countRefused(this.metrics, verdict);
        if (verdict.close) {
          flooded = true;
          this.log.info('a relayed participant kept sending past its budget; its connection is closed', {
            conversation_id: conversationId,
          });
          socket.close(RoomCloseCode.flooding, 'flooding');
          socket.terminate();
        }
        return;
      }
      if (isBinary) this.channel.send(holder, { k: 'audio', m, d: asBuffer(data).toString('base64') }, { audio: true, source: m });
      else this.channel.send(holder, { k: 'frame', m, d: data.toString() }, { source: m });
    };
    for (const [data, isBinary] of backlog.handOff()) forward(data, isBinary);
    socket.on('message', forward);
    socket.on('close', () => {
      // Closed for flooding: the holder's room takes it as the visitor's leave for good (see Room.refuse).
      if (this.outgoing.delete(m)) this.channel.send(holder, { k: 'gone', m, ...(flooded ? { flooding: true } : {}) });
    });
  }

  private budgetOf(key: string): { budget: ParticipantBudget; usedAt: number } {
    let entry = this.budgets.get(key);
    if (!entry) this.budgets.set(key, (entry = { budget: new ParticipantBudget(this.now), usedAt: this.now() }));
    return entry;
  }

  /** An operator's event for a room another instance holds: the number of participants it reached, or null. */
  push(holder: string, conversationId: string, message: RoomMessage): Promise<number | null> {
    const r = randomUUID();
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => this.pushes.delete(r) && resolve(null), PUSH_TIMEOUT_MS);
      this.pushes.set(r, (participants) => (this.clock.clearTimeout(timer), resolve(participants)));
      this.channel.send(holder, { k: 'push', c: conversationId, r, from: this.instanceId, message });
    });
  }

  canvasInteraction(holder: string, conversationId: string, record: Record<string, unknown>): void {
    this.channel.send(holder, { k: 'canvas', c: conversationId, record });
  }

  end(holder: string, conversationId: string, reason: string): void {
    this.channel.send(holder, { k: 'end', c: conversationId, reason });
  }

  /** Rooms held elsewhere that participants here are in, with their holders. */
  relayedRooms(): Map<string, string> {
    return new Map([...this.outgoing.values()].map((o) => [o.conversationId, o.holder]));
  }

  /** The room's holder is gone or changed: its participants here join again (and the room is taken over). */
  disconnect(conversationId: string): void {
    for (const [m, o] of this.outgoing) {
      if (o.conversationId !== conversationId) continue;
      this.outgoing.delete(m);
      this.channel.send(o.holder, { k: 'gone', m });
      o.socket.close(ROOM_MOVED, MOVED_REASON);
    }
  }

  /** Tells each holder that this instance's participants in its rooms are still connected. */
  keepAlive(): void {
    const idleSince = this.now() - BUDGET_IDLE_MS;
    for (const [key, { usedAt }] of this.budgets) if (usedAt < idleSince) this.budgets.delete(key);
    const byHolder = new Map<string, string[]>();
    for (const [m, o] of this.outgoing) byHolder.set(o.holder, [...(byHolder.get(o.holder) ?? []), m]);
    for (const [holder, members] of byHolder) this.channel.send(holder, { k: 'alive', from: this.instanceId, members });
  }

  // ——— On the instance holding the room ———

  /** Participants whose instance has not spoken for them in this long are taken as gone with it. */
  dropQuiet(staleAfterMs: number, now = this.now()): void {
    for (const [m, { socket, from }] of this.incoming) {
      if (now - socket.lastSeen <= staleAfterMs) continue;
      this.incoming.delete(m);
      socket.closed();
      // Its instance may only have been out of reach (the database away a while): its participant
      // joins again, instead of talking on into a room that no longer hears it.
      this.joinAgain(from, m);
    }
  }

  /** This instance is stopping: participants relayed from here leave their rooms elsewhere. */
  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.watch);
    for (const { conversationId } of [...this.outgoing.values()]) this.disconnect(conversationId);
  }

  /** A message from another instance. */
  receive(message: Record<string, unknown>): void {
    const m = typeof message.m === 'string' ? message.m : '';
    const text = typeof message.d === 'string' ? message.d : '';
    // Whatever an instance sends says it is alive: from its id, or from the holder of the participant it is for.
    const from = typeof message.from === 'string' ? message.from : m ? this.outgoing.get(m)?.holder : undefined;
    if (from) this.liveness.heard(from);
    switch (message.k) {
      case 'ping':
        return this.channel.send(String(message.from), { k: 'pong', from: this.instanceId });
      case 'pong':
        return;
      case 'join':
        return void this.admit(message).catch((error: unknown) =>
          this.log.error('relayed join failed', {
            conversation_id: String(message.c),
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      case 'frame':
        return this.incoming.get(m)?.socket.received(text);
      case 'audio':
        return this.incoming.get(m)?.socket.received(Buffer.from(text, 'base64'));
      case 'gone': {
        const entry = this.incoming.get(m);
        this.incoming.delete(m);
        return entry?.socket.closed(message.flooding === true);
      }
      case 'alive':
        return this.stillThere(
          typeof message.from === 'string' ? message.from : '',
          Array.isArray(message.members) ? message.members.map(String) : [],
        );
      case 'send':
        return this.toParticipant(m, text);
      case 'bin':
        return this.toParticipant(m, Buffer.from(text, 'base64'));
      case 'close': {
        const entry = this.outgoing.get(m);
        this.outgoing.delete(m);
        return entry?.socket.close(Number(message.code) || ROOM_MOVED, String(message.reason ?? ''));
      }
      case 'push': {
        const participants = this.host.room(String(message.c))?.push(message.message as RoomMessage) ?? null;
        return this.channel.send(String(message.from), { k: 'pushed', r: message.r, participants });
      }
      case 'pushed':
        return this.pushes.get(String(message.r))?.(typeof message.participants === 'number' ? message.participants : null);
      case 'canvas':
        return this.host.room(String(message.c))?.canvasInteraction(message.record as Record<string, unknown>);
      case 'end':
        return void this.host.room(String(message.c))?.shutdown(String(message.reason));
    }
  }

  /** A participant of another instance joins a room here (or is told to join again when it is not held here). */
  private async admit(message: Record<string, unknown>): Promise<void> {
    const from = String(message.from);
    const m = String(message.m);
    // Registered at once: its frames may arrive while the room is being opened.
    const socket = new RelayedSocket(
      {
        send: (data) =>
          typeof data === 'string'
            ? this.channel.send(from, { k: 'send', m, d: data }, { source: m })
            : this.channel.send(from, { k: 'bin', m, d: Buffer.from(data).toString('base64') }, { audio: true, source: m }),
        close: (code, reason) => {
          this.incoming.delete(m);
          this.channel.send(from, { k: 'close', m, code, reason });
        },
      },
      () => this.metrics.roomInputDropped.inc({ kind: 'backlog' }),
      this.now,
    );
    this.incoming.set(m, { socket, from });
    socket.on('close', () => this.incoming.get(m)?.socket === socket && this.incoming.delete(m));
    const room = await this.host.holdRoom(String(message.c));
    if (!room) return socket.close(ROOM_MOVED, MOVED_REASON);
    const role = message.role === 'operator' ? 'operator' : 'visitor';
    await room.admit(socket, role, {
      userName: typeof message.userName === 'string' ? message.userName : undefined,
      token: String(message.token ?? ''),
      textMode: message.textMode === true,
      timeZone: typeof message.timeZone === 'string' ? message.timeZone : undefined,
      locale: typeof message.locale === 'string' ? message.locale : undefined,
      faceReady: message.faceReady === true,
      speechRecognition: typeof message.speechRecognition === 'boolean' ? message.speechRecognition : undefined,
    });
  }

  /**
   * Another instance's participants in rooms here are still connected. One this room no longer has (its
   * join or its close was lost while the channel was away, as when the database restarts) is told to
   * join again, instead of talking on into a room that does not hear it.
   */
  private stillThere(from: string, members: string[]): void {
    const now = this.now();
    for (const m of members) {
      const entry = this.incoming.get(m);
      if (entry) entry.socket.lastSeen = now;
      else if (from) this.joinAgain(from, m);
    }
  }

  /** Tells the participant's instance to close its socket with "join again". */
  private joinAgain(instance: string, m: string): void {
    this.channel.send(instance, { k: 'close', m, code: ROOM_MOVED, reason: MOVED_REASON });
  }

  /** What the room sends a participant connected here; one that stopped reading is dropped (unsent-output.ts). */
  private toParticipant(m: string, data: string | Uint8Array): void {
    const entry = this.outgoing.get(m);
    if (entry)
      sendBounded(entry.socket, data, this.metrics, () =>
        this.log.info('a relayed participant stopped reading; its connection is dropped', { conversation_id: entry.conversationId }),
      );
  }
}

function asBuffer(data: RawData | string): Buffer {
  if (typeof data === 'string') return Buffer.from(data);
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
