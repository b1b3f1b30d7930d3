// The relay carries what budgets allow: what waits for another instance is packed several frames to a
// NOTIFY and several NOTIFYs to a round trip, and when the queue is past its capacity the audio shed is
// the audio of whoever sends the most, never a quiet participant's. (The real channel on PostgreSQL:
// chaos-relay-capacity.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagesOf, PayloadAssembler, toPayloads } from '../../../../src/server/live/cluster/instance-channel.js';
import { MAX_BATCH_BYTES, NotificationPacker, notifyStatement } from '../../../../src/server/live/cluster/notify-batch.js';
import { SEND_QUEUE_LIMITS, SendQueue, type ShedKind } from '../../../../src/server/live/cluster/send-queue.js';

/** One relayed 16 kHz microphone frame of 40 ms, as the relay sends it. */
const frame = (m: string, i: number) => ({ k: 'audio', m, d: Buffer.alloc(9 + 1_280, i % 256).toString('base64') });

describe('the relay in batches', () => {
  it('one second of 30 relayed 16 kHz microphones goes in a few round trips of packed notifications, each below 8,000 bytes, all in order', () => {
    const queue = new SendQueue(() => assert.fail('nothing is shed'));
    const sent: Array<Record<string, unknown>> = [];
    const packer = new NotificationPacker();
    const assembler = new PayloadAssembler();
    const received: Array<Record<string, unknown>> = [];
    let roundTrips = 0;
    let notifications = 0;
    for (let tick = 0; tick < 25; tick++) {
      for (let p = 0; p < 30; p++) {
        const message = frame(`b.${p}`, tick);
        sent.push(message);
        assert.ok(queue.push('a', toPayloads(message), true, `b.${p}`), 'queued');
      }
      // The sending connection comes round once per 40 ms tick.
      const batch = queue.shiftUpTo(MAX_BATCH_BYTES);
      roundTrips++;
      const packed = packer.pack(batch);
      notifications += packed.length;
      const statement = notifyStatement(packed, (to) => `palkit_room_${to}`);
      assert.equal(statement.values.length, packed.length * 2);
      for (const { payload } of packed) {
        assert.ok(Buffer.byteLength(payload) < 8_000, `a notification of ${Buffer.byteLength(payload)} bytes`);
        received.push(...messagesOf(assembler, payload));
      }
    }
    assert.equal(queue.length, 0, 'nothing is left behind');
    console.log(`# ${sent.length} frames in ${notifications} notifications over ${roundTrips} round trips`);
    assert.deepEqual(received, sent, 'every frame arrives, in order');
    assert.ok(notifications <= sent.length / 3, `${notifications} notifications for ${sent.length} frames`);
    assert.ok(roundTrips <= sent.length / 30, `${roundTrips} round trips for ${sent.length} frames`);
  });

  it('identical frames sent together stay distinct notifications (PostgreSQL drops duplicates within a transaction)', () => {
    const packer = new NotificationPacker();
    const silent = JSON.stringify(frame('b.1', 0));
    const packed = packer.pack(Array.from({ length: 8 }, () => ({ to: 'a', payload: silent })));
    assert.ok(packed.length >= 2);
    assert.equal(new Set(packed.map((n) => n.payload)).size, packed.length, 'no two notifications alike');
  });

  it('keeps each destination in order when payloads for several instances are mixed', () => {
    const packer = new NotificationPacker();
    const items = Array.from({ length: 12 }, (_, i) => ({ to: i % 3 ? 'a' : 'c', payload: JSON.stringify({ k: 'frame', i }) }));
    const assembler = new PayloadAssembler();
    const byInstance: Record<string, number[]> = {};
    for (const n of packer.pack(items)) for (const m of messagesOf(assembler, n.payload)) (byInstance[n.to] ??= []).push(m.i as number);
    assert.deepEqual(byInstance, { a: [1, 2, 4, 5, 7, 8, 10, 11], c: [0, 3, 6, 9] });
  });
});

describe('shedding, fair per participant', () => {
  const limits = { audioBytesPerSource: 10_000, audioBytes: 30_000, maxBytes: 60_000, audioMaxAgeMs: 1_000 };

  it("a participant past its allowance loses only its own audio; the quiet participants' frames all stay", () => {
    const shed: Record<ShedKind, number> = { audio: 0, message: 0 };
    const q = new SendQueue(
      (kind, n) => (shed[kind] += n),
      limits,
      () => 0,
    );
    const payload = 'x'.repeat(1_000);
    let flooderQueued = 0;
    for (let i = 0; i < 50; i++) if (q.push('a', [payload], true, 'flooder')) flooderQueued++;
    for (let i = 0; i < 5; i++) for (const p of ['p1', 'p2']) assert.ok(q.push('a', [payload], true, p), `${p}'s frame ${i} is queued`);
    assert.ok(flooderQueued < 10, `${flooderQueued} of the flooder's frames queued`);
    assert.equal(shed.audio, 50 - flooderQueued);
    assert.equal(q.sheddingSources, 1);
  });

  it('when the whole queue is full, audio is taken from whoever has the most queued', () => {
    const q = new SendQueue(
      () => undefined,
      limits,
      () => 0,
    );
    const payload = 'x'.repeat(1_000);
    for (const p of ['p1', 'p2', 'p3']) for (let i = 0; i < 8; i++) q.push('a', [payload], true, p);
    for (let i = 0; i < 3; i++) q.push('a', [payload], true, 'p4');
    // p1 to p3 each hold 8; the queue's audio bound is reached; p4's next frame takes p1's, not its own.
    for (let i = 0; i < 4; i++) assert.ok(q.push('a', [payload], true, 'p4'), `p4's frame ${i} fits`);
    const left: Record<string, number> = {};
    for (let item = q.shift(); item; item = q.shift()) left[item.source] = (left[item.source] ?? 0) + 1;
    assert.equal(left.p4, 7, "all of p4's frames stay");
    assert.ok((left.p1 ?? 0) < 8, 'the largest lost its audio');
  });

  it('the default limits hold 50 relayed 16 kHz participants with half a second each queued', () => {
    const perFrame = Buffer.byteLength(JSON.stringify(frame('b.1', 0))) + 128;
    assert.ok(SEND_QUEUE_LIMITS.audioBytesPerSource >= perFrame * 12, 'half a second of 40 ms frames per participant');
    assert.ok(SEND_QUEUE_LIMITS.audioBytes >= SEND_QUEUE_LIMITS.audioBytesPerSource * 50);
  });
});
