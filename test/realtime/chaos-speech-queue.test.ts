// Chaos: one tenant's speech items must not slow every tenant's calls. Owner 2 queues 40 speech items of
// 5,000 characters (the cap raised so that all of them queue); while they are generated, owner 1's
// visitor asks its PAL short questions. Background synthesis yields to live rooms (a background lane of
// the local voice, the render tools at the lowest CPU priority), and a finished item's audio (megabytes)
// is written to a file with async fs rather than into the embedded database on the service's thread
// (which kept 4–5 of 20 replies at 400–780 ms), so the visitor's replies start as they did before the
// items were queued: median within 3× and p95 within 500 ms of the quiet figures, same run.
// The scenario is test/helpers/chaos-scenarios/speech-queue.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile } from '../helpers/chaos.js';
import { speechQueue } from '../helpers/chaos-scenarios/speech-queue.js';

for (const voice of ['native', 'wasm'] as const) {
  describe(`chaos: another owner's speech items queue while a call goes on (${voice} voice)`, { timeout: 240_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" }, () => {
    it("owner 1's replies start as quickly as before owner 2's items were queued", async () => {
      const { summary, statuses, quiet, busy } = await speechQueue(voice).run();
      console.log(`# ${summary}`);
      assert.ok(statuses.includes('generating') || statuses.includes('ready'), 'the items were being generated');
      assert.ok(percentile(busy, 50) < 3 * percentile(quiet, 50) + 50, `median ${percentile(busy, 50).toFixed(0)} ms against quiet ${percentile(quiet, 50).toFixed(0)} ms`);
      assert.ok(percentile(busy, 95) < percentile(quiet, 95) + 500, `owner 1's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms`);
    });
  });
}
