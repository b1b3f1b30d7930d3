// Chaos: one tenant's speech items must not slow every tenant's calls. Owner 2 queues 40 speech items of
// 5,000 characters (the cap raised so that all of them queue); while they are generated, owner 1's
// visitor asks its PAL short questions. Background synthesis yields to live rooms (a background lane of
// the local voice, the render tools at the lowest CPU priority), so the visitor's replies start as they
// did before the items were queued: median within 3× and p95 within 500 ms of the quiet figures, same run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { sleep, type RoomClient } from '../helpers/live-fixtures.js';

const ITEMS = 40;
const OWNER_2 = 'chaos-key-owner-2';
const SCRIPT = Array.from({ length: 900 }, (_, i) => ['the', 'quarterly', 'report', 'reads', 'aloud', 'slowly'][i % 6]).join(' ').slice(0, 4_990) + '.';

for (const voice of ['native', 'wasm'] as const) {
  describe(`chaos: another owner's speech items queue while a call goes on (${voice} voice)`, { timeout: 240_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" }, () => {
    let chaos: ChaosService;
    let visitor: RoomClient;
    before(async () => {
      chaos = await startChaosService({ PALKIT_API_KEYS: `chaos-key:1,${OWNER_2}:2`, PALKIT_GENERATING_PER_OWNER: '50', PALKIT_LOCAL_VOICE: voice });
      visitor = (await chaos.call()).client;
    });
    after(async () => {
      visitor?.close();
      await chaos?.stop();
    });

    const speech = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(chaos.process.url + path, { method, headers: { 'x-api-key': OWNER_2, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, body: (await r.json()) as any };
    };

    it("owner 1's replies start as quickly as before owner 2's items were queued", async () => {
      const quiet: number[] = [];
      for (let i = 0; i < 12; i++) {
        quiet.push(await replyMs(visitor));
        await sleep(200);
      }
      const ids: string[] = [];
      for (let i = 0; i < ITEMS; i++) {
        const created = await speech('POST', '/v2/speech', { script: SCRIPT });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        ids.push(created.body.speech_id);
      }
      await sleep(1_000); // generation is under way
      const busy: number[] = [];
      for (let i = 0; i < 20; i++) {
        busy.push(await replyMs(visitor, 30_000));
        await sleep(250);
      }
      const statuses = await Promise.all(ids.map(async (id) => (await speech('GET', `/v2/speech/${id}`)).body.status as string));
      chaos.assertAlive();
      const ready = statuses.filter((s) => s === 'ready').length;
      console.log(
        `# ${voice}: ${ITEMS} speech items of ${SCRIPT.length} characters queued (${ready} ready, ${statuses.filter((s) => s === 'generating').length} generating when measured); ` +
          `owner 1's reply quiet median ${percentile(quiet, 50).toFixed(0)} ms p95 ${percentile(quiet, 95).toFixed(0)} ms, ` +
          `busy median ${percentile(busy, 50).toFixed(0)} ms p95 ${percentile(busy, 95).toFixed(0)} ms`,
      );
      assert.ok(statuses.includes('generating') || ready > 0, 'the items were being generated');
      assert.ok(percentile(busy, 50) < 3 * percentile(quiet, 50) + 50, `median ${percentile(busy, 50).toFixed(0)} ms against quiet ${percentile(quiet, 50).toFixed(0)} ms`);
      assert.ok(percentile(busy, 95) < percentile(quiet, 95) + 500, `owner 1's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms`);
    });
  });
}
