// The room relay between two instances, over an in-process channel that can lose what is sent (as
// NOTIFY does while a connection is away). A participant the holder no longer has — its close was lost —
// is told to join again at the next keep-alive, instead of talking on into a room that does not hear it.
// The real channel, on PostgreSQL, is covered by chaos-database.test.ts.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { WebSocket } from 'ws';
import type { Logger } from '../../src/server/app/log.js';
import type { ServiceMetrics } from '../../src/server/app/ops/metrics.js';
import type { InstanceChannel } from '../../src/server/live/cluster/instance-channel.js';
import { ROOM_MOVED, RoomRelay } from '../../src/server/live/cluster/room-relay.js';
import type { Room, RoomSocket } from '../../src/server/live/room/room.js';

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
const metrics = {} as ServiceMetrics;
const settle = () => new Promise((resolve) => setImmediate(resolve));

function twoInstances() {
  const network = new Network();
  const admitted: RoomSocket[] = [];
  const room = { admit: async (socket: RoomSocket) => void admitted.push(socket) } as unknown as Room;
  const holder = new RoomRelay(network.channel('a'), { holdRoom: async () => room, room: () => room }, log, metrics);
  const other = new RoomRelay(network.channel('b'), { holdRoom: async () => null, room: () => undefined }, log, metrics);
  network.relays.set('a', holder).set('b', other);
  return { network, admitted, holder, other };
}

function joinThroughB(other: RoomRelay): VisitorSocket {
  const visitor = new VisitorSocket();
  other.join('a', visitor as unknown as WebSocket, 'c1', { role: 'visitor', token: 't', textMode: true }, { frames: [], handedOff: false });
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
});
