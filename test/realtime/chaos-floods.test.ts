// Chaos: one visitor floods its room from a process of its own — microphone audio far faster than real
// time into a recorded call, and tens of thousands of chat turns. The service never exits, another
// visitor's room keeps answering in time (p95 under 500 ms, or three times its quiet p95 of the same run), memory grows by less than 300 MB, what went
// past the budget is counted in /metrics, and the flooded call's recording is no longer than the call. A
// visitor closed for flooding (4429) does not come back, and with nobody else in the room its conversation
// ends: the flooder joining again is refused (4410).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { flood, percentile, replyMs, startChaosService, type ChaosService, type FloodKind } from '../helpers/chaos.js';
import { sleep, type RoomClient } from '../helpers/live-fixtures.js';

describe(
  'chaos: one visitor floods its room',
  { timeout: 120_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" },
  () => {
    let chaos: ChaosService;
    let bystander: RoomClient;
    before(async () => {
      chaos = await startChaosService({ PALKIT_ROOM_POLL_MS: '200' });
      bystander = (await chaos.call()).client;
    });
    after(async () => {
      bystander?.close();
      await chaos?.stop();
    });

    /** Floods a new conversation while the bystander asks; returns the bystander's reply times. */
    async function during(kind: FloodKind, count: number, properties: Record<string, unknown> = {}) {
      // The same bystander's quiet replies of this run: the machine may be busy with more than this test.
      const quiet: number[] = [];
      for (let i = 0; i < 10; i++) {
        quiet.push(await replyMs(bystander));
        await sleep(100);
      }
      const bar = Math.max(500, 3 * percentile(quiet, 95));
      const conv = await chaos.conversation(properties);
      const rssBefore = chaos.rssMb();
      const flooding = flood(conv, kind, count);
      const replies: number[] = [];
      let done = false;
      void flooding.finally(() => (done = true));
      // The bystander asks about four times a second, well inside its own budget.
      // A flood now ends with its conversation at the first close (a second or two): 20 replies whatever its
      // length, so that p95 is a figure and not the one reply that met the conversation's end.
      while (!done || replies.length < 20) {
        replies.push(await replyMs(bystander));
        await sleep(250);
      }
      const result = await flooding;
      chaos.assertAlive();
      const growth = chaos.rssMb() - rssBefore;
      console.log(
        `# ${kind}: ${result.sent} frames over ${result.sessions} connections; bystander quiet p95 ${percentile(quiet, 95).toFixed(0)} ms, during p95 ${percentile(replies, 95).toFixed(0)} ms over ${replies.length} replies; memory +${growth.toFixed(0)} MB`,
      );
      assert.ok(
        percentile(replies, 95) < bar,
        `the bystander's replies (bar ${bar.toFixed(0)} ms) took ${replies.map((r) => r.toFixed(0)).join(', ')} ms`,
      );
      assert.ok(growth < 300, `memory grew by ${growth.toFixed(0)} MB`);
      return { conv, ...result };
    }

    async function closedForFlooding(): Promise<number> {
      const metrics = await (await fetch(`${chaos.process.url}/metrics`)).text();
      return Number(/^palkit_room_sockets_closed_flooding_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    }

    async function dropped(kind: string): Promise<number> {
      const metrics = await (await fetch(`${chaos.process.url}/metrics`)).text();
      return Number(new RegExp(`^palkit_room_input_dropped_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    }

    it('microphone audio far faster than real time into a recorded call: dropped past a second ahead, the recording no longer than the call', async () => {
      const startedAt = Date.now();
      const { conv, sent, closeCodes } = await during('audio', 60_000, { enable_recording: true });
      assert.ok(sent > 1_000, 'the flood ran');
      // Closed with the flooding code; a flooder busy sending may be dropped before it reads the close (1006).
      assert.ok(closeCodes[0] === 4429 || closeCodes[0] === 1006, `closed with ${closeCodes[0]}`);
      assert.ok((await closedForFlooding()) >= 1, 'the close is counted as for flooding');
      assert.equal(closeCodes.at(-1), 4410, 'joining again finds the conversation ended');
      assert.ok((await dropped('audio')) >= 1000, 'the dropped audio is counted');
      assert.equal((await chaos.api('POST', `/v2/conversations/${conv.conversationId}/end`)).status, 200);
      const callSeconds = (Date.now() - startedAt) / 1000;
      const deadline = Date.now() + 20_000;
      let recording: { status: string; duration: number } | undefined;
      while (Date.now() < deadline) {
        recording = (await chaos.api('GET', `/v2/conversations/${conv.conversationId}/recordings`)).body.data[0];
        if (recording?.status === 'stored') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(recording?.status, 'stored');
      assert.ok(recording!.duration <= callSeconds, `a ${recording!.duration} s recording of a ${callSeconds} s call`);
    });

    it('tens of thousands of chat turns: dropped past the budget, never answered all', async () => {
      const before = await dropped('frame');
      const { sent } = await during('chat', 60_000);
      assert.ok(sent > 1_000, 'the flood ran');
      assert.ok((await dropped('frame')) - before >= 1000, 'the dropped turns are counted');
    });
  },
);
