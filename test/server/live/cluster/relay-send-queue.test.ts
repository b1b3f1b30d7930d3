// The instance channel's send queue: bounded, audio shed first, order kept, every shed payload counted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SendQueue, type ShedKind } from '../../../../src/server/live/cluster/send-queue.js';

const limits = { audioBytesPerSource: 4_000, audioBytes: 4_000, maxBytes: 20_000, audioMaxAgeMs: 200 };
const payload = (bytes: number, tag = 'x') => tag.padEnd(bytes, '.');

function queue(clock = { now: 0 }) {
  const shed: Record<ShedKind, number> = { audio: 0, message: 0 };
  const q = new SendQueue(
    (kind, n) => (shed[kind] += n),
    limits,
    () => clock.now,
  );
  return { q, shed };
}

describe('the instance channel send queue', () => {
  it('refuses audio once the audio bound is queued, and keeps taking messages', () => {
    const { q, shed } = queue();
    let queuedAudio = 0;
    for (let i = 0; i < 100; i++) if (q.push('b', [payload(500)], true)) queuedAudio++;
    assert.ok(queuedAudio >= 5 && queuedAudio < 10, `${queuedAudio} audio payloads queued`);
    assert.equal(shed.audio, 100 - queuedAudio);
    assert.ok(q.push('b', [payload(2_000, 'frame')], false), 'a message still fits');
    assert.ok(q.bytes <= limits.audioBytes + 2_000 + 128);
  });

  it('a message that would pass the bound clears the queued audio first, then is dropped only if it still does not fit', () => {
    const { q, shed } = queue();
    for (let i = 0; i < 6; i++) q.push('b', [payload(500, `a${i}`)], true);
    for (let i = 0; i < 7; i++) assert.ok(q.push('b', [payload(2_000, `m${i}`)], false));
    const audioBefore = shed.audio;
    assert.ok(q.push('b', [payload(2_000, 'm7')], false), 'room made by shedding the audio');
    assert.equal(shed.audio - audioBefore, 6);
    for (let i = 8; q.push('b', [payload(2_000, `m${i}`)], false); i++);
    assert.equal(shed.message, 1, 'with no audio left, the message past the bound is dropped');
    assert.ok(q.bytes <= limits.maxBytes);
    const sent: string[] = [];
    for (let item = q.shift(); item; item = q.shift()) sent.push(item.payload.split('.')[0]!);
    assert.deepEqual(sent.slice(0, 3), ['m0', 'm1', 'm2'], 'in the order sent');
    assert.equal(q.bytes, 0);
    assert.equal(q.length, 0);
  });

  it('a message in parts is queued whole or not at all', () => {
    const { q, shed } = queue();
    assert.equal(q.push('b', [payload(3_000), payload(3_000)], true), false);
    assert.equal(shed.audio, 2);
    assert.equal(q.length, 0);
  });

  it('audio that waited longer than the age bound is dropped when its turn comes; messages never are', () => {
    const clock = { now: 0 };
    const { q, shed } = queue(clock);
    q.push('b', [payload(100, 'old-audio')], true);
    q.push('b', [payload(100, 'old-message')], false);
    clock.now = 150;
    q.push('b', [payload(100, 'new-audio')], true);
    clock.now = 250;
    assert.equal(q.shift()?.payload.split('.')[0], 'old-message');
    assert.equal(shed.audio, 1);
    assert.equal(q.shift()?.payload.split('.')[0], 'new-audio', 'audio still within the bound is sent');
    assert.equal(q.shift(), undefined);
  });
});
