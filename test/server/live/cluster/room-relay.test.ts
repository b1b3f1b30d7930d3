// The room relay between two instances, over an in-process channel that can lose what is sent (as
// NOTIFY does while a connection is away). A participant the holder no longer has — its close was lost —
// is told to join again at the next keep-alive, instead of talking on into a room that does not hear it.
// The real channel, on PostgreSQL, is covered by chaos-database.test.ts.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { WebSocket } from 'ws';
import type { Logger } from '../../../../src/server/platform/log.js';
import type { ServiceMetrics } from '../../../../src/server/platform/metrics.js';
import type { InstanceChannel } from '../../../../src/server/live/cluster/instance-channel.js';
import { ROOM_MOVED, RoomRelay } from '../../../../src/server/live/cluster/room-relay.js';
import { RelayedSocket } from '../../../../src/server/live/cluster/relayed-socket.js';
import { PARTICIPANT_BUDGET } from '../../../../src/server/live/room/participant-budget.js';
import { JoinBacklog } from '../../../../src/server/live/room/join-backlog.js';
import type { Room } from '../../../../src/server/live/room/room.js';
import type { RoomSocket } from '../../../../src/server/live/room/members.js';
import { systemClock } from '../../../../src/server/platform/time.js';

/** Instances on one channel; while `away`, whatever is sent is lost. */
class Network {
  away = false;
  readonly relays = new Map<string, RoomRelay>();

  channel(instanceId: string): InstanceChannel {
    return {
      instanceId,
      ready: true,
      queuedBytes: 0,
      sheddingParticipants: 0,
      send: (to, message) => {
        if (this.away) return;
        const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
        queueMicrotask(() => this.relays.get(to)?.receive(copy));
      },
      close: async () => undefined,
    };
  }
}

/** The participant's own WebSocket, on the instance it connected to. */
class VisitorSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  closedWith: number | null = null;
  send(): void {}
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate(): void {}
}

const log: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => log } as unknown as Logger;
/** Drops counted by kind, as /metrics would. */
const dropped: Record<string, number> = {};
const metrics = {
  roomInputDropped: { inc: ({ kind }: { kind: string }) => void (dropped[kind] = (dropped[kind] ?? 0) + 1) },
  roomSocketsClosedForFlooding: { inc() {} },
  roomSocketsDroppedUnread: { inc() {} },
} as unknown as ServiceMetrics;
const settle = () => new Promise((resolve) => setImmediate(resolve));

function twoInstances(now?: () => number) {
  const clock = now ? { ...systemClock, now: () => new Date(now()) } : systemClock;
  const network = new Network();
  const admitted: RoomSocket[] = [];
  const room = { admit: async (socket: RoomSocket) => void admitted.push(socket) } as unknown as Room;
  const holder = new RoomRelay(network.channel('a'), { holdRoom: async () => room, room: () => room }, log, metrics, clock);
  const other = new RoomRelay(network.channel('b'), { holdRoom: async () => null, room: () => undefined }, log, metrics, clock);
  network.relays.set('a', holder).set('b', other);
  return { network, admitted, holder, other };
}

function joinThroughB(other: RoomRelay): VisitorSocket {
  const visitor = new VisitorSocket();
  other.join('a', visitor as unknown as WebSocket, 'c1', { role: 'visitor', token: 't', textMode: true }, new JoinBacklog());
  return visitor;
}

describe('the room relay', () => {
  it('a participant the holder dropped while the channel was away is told to join again by the next keep-alive', async () => {
    const { network, admitted, holder, other } = twoInstances();
    const visitor = joinThroughB(other);
    await settle();
    assert.equal(admitted.length, 1, 'the holder admitted the relayed participant');

    network.away = true;
    holder.dropQuiet(0, Date.now() + 1); // its instance went quiet; the "join again" sent now is lost
    await settle();
    assert.equal(admitted[0]!.readyState, 3, 'the holder let the participant go');
    assert.equal(visitor.closedWith, null, 'the close never arrived');

    network.away = false;
    other.keepAlive();
    await settle();
    assert.equal(visitor.closedWith, ROOM_MOVED, 'the participant is told to join again');
  });

  it('a join lost on the way is found the same way', async () => {
    const { network, admitted, other } = twoInstances();
    network.away = true;
    const visitor = joinThroughB(other);
    await settle();
    network.away = false;
    assert.equal(admitted.length, 0);
    other.keepAlive();
    await settle();
    assert.equal(visitor.closedWith, ROOM_MOVED);
  });

  it('a participant the holder still has is only marked as seen', async () => {
    const { admitted, holder, other } = twoInstances();
    const visitor = joinThroughB(other);
    await settle();
    other.keepAlive();
    await settle();
    holder.dropQuiet(60_000);
    assert.equal(visitor.closedWith, null);
    assert.equal(admitted[0]!.readyState, 1);
  });

  it('a participant joining again through its instance finds its budget there as it left it (issue 34)', async () => {
    const clock = { ms: 0 };
    const { admitted, other } = twoInstances(() => clock.ms);
    const chat = (i: number) => JSON.stringify({ type: 'app-message', data: { note: i } });
    const heard = async (visitor: VisitorSocket, frames: number, socket: number) => {
      for (let i = 0; i < frames; i++) visitor.emit('message', chat(i), false);
      await settle();
      const received: unknown[] = [];
      admitted[socket]!.on('message', (data) => received.push(data));
      return received.length;
    };
    const first = joinThroughB(other);
    await settle();
    assert.equal(await heard(first, 40, 0), PARTICIPANT_BUDGET.frames.burst, 'the burst reaches the holder');
    first.close(1000);
    const again = joinThroughB(other);
    await settle();
    assert.equal(await heard(again, 10, 1), 0, 'joining again refilled nothing');
  });

  it('a participant its instance closed for flooding is closed for flooding on the holder too (the room ends a call it was alone in)', async () => {
    const { admitted, other } = twoInstances(() => 0);
    const visitor = joinThroughB(other);
    await settle();
    const nothing = Buffer.from('02000000803E000000', 'hex');
    for (let i = 0; i < PARTICIPANT_BUDGET.dropsToClose && visitor.closedWith === null; i++) visitor.emit('message', nothing, true);
    assert.equal(visitor.closedWith, 4429);
    await settle();
    assert.equal(admitted[0]!.readyState, 3);
    assert.equal(admitted[0]!.closedForFlooding, true);
  });

  it("what reaches the holder before its room reads is bounded like a join's backlog", () => {
    const before = dropped.backlog ?? 0;
    const socket = new RelayedSocket({ send() {}, close() {} }, () => metrics.roomInputDropped.inc({ kind: 'backlog' }));
    for (let i = 0; i < 100; i++) socket.received(`{"type":"app-message","data":${i}}`);
    const read: unknown[] = [];
    socket.on('message', (data) => read.push(data));
    assert.equal(read.length, 64);
    assert.equal((dropped.backlog ?? 0) - before, 36);
  });
});
