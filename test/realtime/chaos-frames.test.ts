// Chaos: a hostile visitor's binary frames against the service running as its own process. Every header
// field of the audio frame (kind, viseme, reserved bytes, sample rate) and its length are fuzzed; rates
// libfvad cannot take (44.1, 24, 96 kHz) and rates switching on every frame are sent on purpose. The
// process never exits, its memory stays bounded, and another visitor's room keeps answering in time: reply
// bars are ratios to the bystander's quiet replies measured in the same run (the machine may be busy with more
// than this test), with a floor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import fc from 'fast-check';
import { AudioFrameKind, AUDIO_HEADER_BYTES } from '../../src/protocol/room.js';
import { flood, percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { sleep, type RoomClient } from '../helpers/live-fixtures.js';

const SEED = Number(process.env.PALKIT_FUZZ_SEED ?? 20261123);

/** A binary frame with these header fields and `samples` samples of a tone (odd byte counts allowed). */
function frame(f: { kind: number; viseme: number; reserved: number; rate: number; bytes: number }): Buffer {
  const out = Buffer.alloc(AUDIO_HEADER_BYTES + f.bytes);
  out.writeUInt8(f.kind, 0);
  out.writeUInt8(f.viseme, 1);
  out.writeUInt16LE(f.reserved, 2);
  out.writeUInt32LE(f.rate >>> 0, 4);
  for (let i = 0; i + 1 < f.bytes; i += 2) out.writeInt16LE(Math.round(8000 * Math.sin(i / 9)), AUDIO_HEADER_BYTES + i);
  return out;
}

const header = fc.record({
  kind: fc.oneof(fc.constantFrom(AudioFrameKind.microphone, AudioFrameKind.palVoice), fc.integer({ min: 0, max: 255 })),
  viseme: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 255 })),
  reserved: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })),
  rate: fc.oneof(
    fc.constantFrom(8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 96000),
    fc.constantFrom(0, 7999, 96001, 0xffffffff),
    fc.integer({ min: 0, max: 200_000 }),
  ),
  bytes: fc.oneof(fc.constantFrom(0, 1, 2, 640, 641, 1764, 3840), fc.integer({ min: 0, max: 60_000 })),
});

async function send(client: RoomClient, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => client.socket.send(bytes, (error) => (error ? reject(error) : resolve())));
}

describe(
  'chaos: hostile microphone frames',
  { timeout: 120_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" },
  () => {
    let chaos: ChaosService;
    let bystander: RoomClient;
    /** The bystander's quiet replies, before any hostile frame: what "in time" is measured against. */
    const quiet: number[] = [];
    /** How long a reply may take while the frames arrive: `factor` times the quiet p95, at least `floorMs`. */
    const bar = (factor: number, floorMs: number) => Math.max(floorMs, factor * percentile(quiet, 95));
    before(async () => {
      chaos = await startChaosService();
      bystander = (await chaos.call()).client;
      for (let i = 0; i < 5; i++) quiet.push(await replyMs(bystander));
      console.log(`# bystander quiet ${quiet.map((r) => r.toFixed(0)).join(', ')} ms`);
    });
    after(async () => {
      bystander?.close();
      await chaos?.stop();
    });

    it('one microphone frame at 44.1, 24 or 96 kHz is heard as audio, not a crash', async () => {
      const { client } = await chaos.call();
      for (const rate of [44100, 24000, 96000])
        await send(client, frame({ kind: AudioFrameKind.microphone, viseme: 0, reserved: 0, rate, bytes: (rate / 50) * 2 }));
      const reply = await replyMs(client);
      assert.ok(reply < bar(20, 2000), `the room that sent them still answers (${reply.toFixed(0)} ms)`);
      chaos.assertAlive();
      client.close();
    });

    it('every header field and length, fuzzed: the process stays up and the visitor and a bystander still get answers', async () => {
      const { client } = await chaos.call();
      const rssBefore = chaos.rssMb();
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(header, { minLength: 1, maxLength: 30 }), async (frames) => {
          for (const f of frames) {
            if (client.socket.readyState !== client.socket.OPEN) return;
            await send(client, frame(f));
            sent++;
          }
        }),
        { seed: SEED, numRuns: 60 },
      );
      chaos.assertAlive();
      // Frames the decoder refuses are answered with an error frame; the connection stays open.
      assert.equal(client.socket.readyState, client.socket.OPEN, 'bad frames are refused one by one, not by closing the call');
      await client.waitFor((f) => f.type === 'error' && f.code === 'bad_frame'); // refused frames are named
      await sleep(3000); // the fuzz spent the visitor's frame budget too: chat waits for it to refill
      const own = await replyMs(client);
      const other = await replyMs(bystander);
      console.log(
        `# after ${sent} fuzzed frames: the fuzzed room answered in ${own.toFixed(0)} ms, the bystander in ${other.toFixed(0)} ms`,
      );
      assert.ok(own < bar(20, 2000), `the fuzzed room still answers (${own.toFixed(0)} ms)`);
      assert.ok(other < bar(10, 500), `the bystander's room answers in time (${other.toFixed(0)} ms)`);
      const growth = chaos.rssMb() - rssBefore;
      assert.ok(growth < 300, `memory grew by ${growth.toFixed(0)} MB over ${sent} fuzzed frames`);
    });

    it('rates switching on every frame (8 ↔ 16 kHz) leak no detector: memory stays flat while a bystander keeps answering', async () => {
      const conv = await chaos.conversation();
      const rssBefore = chaos.rssMb();
      const replies: number[] = [];
      const flooding = flood(conv, 'rates', 20_000);
      for (let i = 0; i < 5; i++) replies.push(await replyMs(bystander));
      const { sent, closeCode } = await flooding;
      console.log(
        `# ${sent} frames sent (closed with ${closeCode}); bystander quiet ${quiet.map((r) => r.toFixed(0)).join(', ')} ms, during the flood ${replies.map((r) => r.toFixed(0)).join(', ')} ms`,
      );
      chaos.assertAlive();
      const growth = chaos.rssMb() - rssBefore;
      assert.ok(growth < 100, `memory grew by ${growth.toFixed(0)} MB over ${sent} frames switching rates`);
      assert.ok(percentile(replies, 95) < bar(10, 500), `the bystander's replies took ${replies.map((r) => r.toFixed(0)).join(', ')} ms`);
    });
  },
);
