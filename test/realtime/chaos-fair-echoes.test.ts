// Chaos: fairness by cost. Thirty visitors, each in a room of its own and each within its budget, keep
// their PALs reading 3,990-character echoes without a full stop (one "sentence" to the synthesiser before
// texts were cut into bounded pieces), while a bystander in another room asks its PAL short questions.
// The bystander's reply starts within 500 ms of its quiet replies (p95), measured in the same run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { sleep, type RoomClient } from '../helpers/live-fixtures.js';

const VISITORS = 30;
const LONG_ECHO = Array.from({ length: 800 }, (_, i) => ['please', 'read', 'this', 'long', 'echo', 'aloud'][i % 6]).join(' ').slice(0, 3_990);

describe('chaos: thirty visitors keep their PALs reading long echoes', { timeout: 240_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" }, () => {
  let chaos: ChaosService;
  let bystander: RoomClient;
  const echoers: RoomClient[] = [];
  before(async () => {
    chaos = await startChaosService({ PALKIT_ROOM_POLL_MS: '500' });
    bystander = (await chaos.call()).client;
  });
  after(async () => {
    for (const client of [bystander, ...echoers]) client?.close();
    await chaos?.stop();
  });

  it("another room's reply starts within 500 ms of its quiet replies (p95)", async () => {
    const quiet: number[] = [];
    for (let i = 0; i < 12; i++) {
      quiet.push(await replyMs(bystander));
      await sleep(150);
    }
    for (let i = 0; i < VISITORS; i += 10) echoers.push(...(await Promise.all(Array.from({ length: Math.min(10, VISITORS - i) }, async () => (await chaos.call()).client))));
    // Each visitor sends a long echo every two seconds: 2,000 characters a second, a quarter of its text budget.
    let sending = true;
    let sent = 0;
    const echoing = (async () => {
      while (sending) {
        for (const client of echoers) client.say('conversation.echo', { text: LONG_ECHO });
        sent += echoers.length;
        await sleep(2_000);
      }
    })();
    await sleep(3_000); // every room is speaking
    const lagMax = async () => Number(/^palkit_nodejs_eventloop_lag_max_seconds (\S+)/m.exec(await (await fetch(`${chaos.process.url}/metrics`)).text())?.[1] ?? NaN) * 1000;
    let longestStall = 0;
    const busy: number[] = [];
    for (let i = 0; i < 20; i++) {
      longestStall = Math.max(longestStall, await lagMax());
      busy.push(await replyMs(bystander, 30_000));
      await sleep(250);
    }
    sending = false;
    await echoing;
    chaos.assertAlive();
    const speaking = echoers.filter((c) => c.events('conversation.replica.started_speaking').length >= 2).length;
    console.log(
      `# ${VISITORS} rooms reading ${LONG_ECHO.length}-character echoes (${sent} sent, ${speaking} rooms speaking them); ` +
        `bystander quiet p95 ${percentile(quiet, 95).toFixed(0)} ms (median ${percentile(quiet, 50).toFixed(0)}), ` +
        `busy p95 ${percentile(busy, 95).toFixed(0)} ms (median ${percentile(busy, 50).toFixed(0)}, max ${Math.max(...busy).toFixed(0)}); the service's longest event-loop stall ${longestStall.toFixed(0)} ms`,
    );
    assert.ok(speaking >= VISITORS - 2, `${speaking} of ${VISITORS} rooms spoke their echoes`);
    assert.ok(percentile(busy, 95) < percentile(quiet, 95) + 500, `the bystander's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms (quiet p95 ${percentile(quiet, 95).toFixed(0)} ms)`);
  });
});
