// Chaos (issue 34): visitors that never read flood their rooms with binary frames that carry no audio (a
// 9-byte kind-2 frame, an 8-byte kind-1 frame, reserved bytes set, no samples). Before, each was free and
// answered with bad_frame, and the answers piled up for a socket that did not read: 496 → 1,355 MB in
// 15 s, another room's reply 4 ms → 3.4 s. Now each costs a frame and 20 ms of audio, is answered once a
// while, and a flood is closed with 4429 (the visitor thrown out, the conversation ends): memory grows by
// less than 50 MB and another room answers as it does when all is quiet.
// The scenario is test/helpers/chaos-scenarios/zero-cost-frames.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, reportReplies } from '../helpers/chaos.js';
import { zeroCostFrames } from '../helpers/chaos-scenarios/zero-cost-frames.js';

describe(
  'chaos: zero-cost frames from visitors that never read',
  { timeout: 180_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" },
  () => {
    it('memory grows by less than 50 MB and another room answers as when quiet', async () => {
      const { summary, floods, dropped, growthMb, quiet, during } = await zeroCostFrames.run();
      console.log(`# zero-cost: ${summary}`);
      const bar = Math.max(500, 3 * percentile(quiet, 95));
      reportReplies('zero-cost frames', quiet, during, bar);
      assert.ok(floods.length >= 1, 'the floods ran');
      for (const r of floods) {
        // The flooder does not read, so it may never see the close frame before it is dropped (1006).
        assert.ok(r.closeCodes[0] === 4429 || r.closeCodes[0] === 1006, `the flood was closed (${r.closeCodes.join(', ')})`);
        assert.equal(r.closeCodes.at(-1), 4410, 'joining again finds the conversation ended');
        assert.ok(r.sent < 500_000, 'no flood ran its course');
      }
      assert.ok(dropped >= 1000 * floods.length, `${dropped} malformed frames counted as dropped`);
      assert.ok(growthMb < 50, `memory grew by ${growthMb.toFixed(0)} MB`);
      assert.ok(
        percentile(during, 95) < bar,
        `the bystander's replies (bar ${bar.toFixed(0)} ms) took ${during.map((r) => r.toFixed(0)).join(', ')} ms`,
      );
    });
  },
);
