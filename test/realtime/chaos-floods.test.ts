// Chaos: one visitor floods its room from a process of its own — microphone audio far faster than real
// time into a recorded call, and tens of thousands of chat turns. The service never exits, another
// visitor's room keeps answering in time (p95 under 500 ms), memory grows by less than 300 MB, what went
// past the budget is counted in /metrics, and the flooded call's recording is no longer than the call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { flood, percentile, replyMs, startChaosService, type ChaosService, type FloodKind } from '../helpers/chaos.js';
import { sleep, type RoomClient } from '../helpers/live-fixtures.js';

describe('chaos: one visitor floods its room', { timeout: 120_000 , skip: onPostgres && 'the room\'s chaos runs once, on the PGlite leg' }, () => {
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
    const conv = await chaos.conversation(properties);
    const rssBefore = chaos.rssMb();
    const flooding = flood(conv, kind, count);
    const replies: number[] = [];
    let done = false;
    void flooding.finally(() => (done = true));
    // The bystander asks about four times a second, well inside its own budget.
    while (!done || replies.length < 5) {
      replies.push(await replyMs(bystander));
      await sleep(250);
    }
    const result = await flooding;
    chaos.assertAlive();
    const growth = chaos.rssMb() - rssBefore;
    console.log(`# ${kind}: ${result.sent} frames over ${result.sessions} connections; bystander p95 ${percentile(replies, 95).toFixed(0)} ms over ${replies.length} replies; memory +${growth.toFixed(0)} MB`);
    assert.ok(percentile(replies, 95) < 500, `the bystander's replies took ${replies.map((r) => r.toFixed(0)).join(', ')} ms`);
    assert.ok(growth < 300, `memory grew by ${growth.toFixed(0)} MB`);
    return { conv, ...result };
  }

  async function dropped(kind: string): Promise<number> {
    const metrics = await (await fetch(`${chaos.process.url}/metrics`)).text();
    return Number(new RegExp(`^palkit_room_input_dropped_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
  }

  it('microphone audio far faster than real time into a recorded call: dropped past a second ahead, the recording no longer than the call', async () => {
    const startedAt = Date.now();
    const { conv, sent, closeCode, sessions } = await during('audio', 60_000, { enable_recording: true });
    assert.ok(sent > 5_000, 'the flood ran');
    assert.equal(closeCode, 4429, 'a connection that keeps flooding is closed with the flooding code');
    assert.ok(sessions > 1, 'the flooder had to join again');
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
    assert.ok(sent > 5_000, 'the flood ran');
    assert.ok((await dropped('frame')) - before >= 1000, 'the dropped turns are counted');
  });
});
