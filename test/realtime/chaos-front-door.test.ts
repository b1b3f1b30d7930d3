// Chaos: the public front door under floods, on the real service in a process of its own.
// 1. 10,000 conversations nobody joined expire together: the poll settles them in batches, and /healthz
//    and a live room keep answering (before, /healthz failed three times in ~40 s and a reply took 6.7 s).
// 2. 20,000 idle WebSocket upgrades from one address (127.0.0.2, at most 1,000 open at once on this side:
//    the test process has its own descriptor limit): the address's upgrades past its cap are refused at
//    once, and /healthz and a valid join from 127.0.0.1 are still answered (before, every new request
//    failed for 20 s once the descriptors ran out).
// Thresholds are ratios to /healthz's quiet baseline measured in the same run (or 100 ms, whichever is
// larger); the figures are printed.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { percentile, replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { RoomClient, sleep } from '../helpers/live-fixtures.js';
import { onPostgres } from '../helpers/service.js';

const skip = onPostgres && "the front door's chaos runs once, on the PGlite leg";

/** /healthz's time in ms, or null when it failed (no answer within 5 s, an error, not 200). */
function healthz(url: string, localAddress = '127.0.0.1'): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/healthz`, { localAddress, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

/** Asks /healthz every `everyMs` until stopped; its times (and when each was asked) and failures. */
function probe(url: string, everyMs = 50, localAddress = '127.0.0.1') {
  const answers: Array<{ at: number; ms: number }> = [];
  const failedAt: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = Date.now();
      const ms = await healthz(url, localAddress);
      if (ms === null) failedAt.push(at);
      else answers.push({ at, ms });
      await sleep(everyMs);
    }
  })();
  return {
    answers,
    failedAt,
    get times() {
      return answers.map((a) => a.ms);
    },
    get failures() {
      return failedAt.length;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} answers)`;

describe('chaos: the front door', { skip, timeout: 900_000 }, () => {
  describe('10,000 conversations expire together', () => {
    let chaos: ChaosService;
    before(async () => {
      chaos = await startChaosService({ PALKIT_ROOM_POLL_MS: '1000' });
    });
    after(() => chaos?.stop());

    it('settles them while /healthz and a live room keep answering', async () => {
      const count = 10_000;
      const { client } = await chaos.call();
      const quietReplies = [await replyMs(client), await replyMs(client), await replyMs(client)];
      const quiet = probe(chaos.process.url);
      await sleep(2000);
      await quiet.stop();

      // Each conversation's absent timeout is set so that all of them expire in the same second, whatever
      // the time creating them takes (30 to 90 a second on a shared 2-core machine).
      const createdStarted = performance.now();
      // A first 200 tell how long the rest will take on this machine; they all expire half as long again after.
      let expireAt = Date.now() + 3_600_000;
      const ids: string[] = [];
      let next = 0;
      let retried = 0;
      const create = async () => {
        const properties = { participant_absent_timeout: Math.max(1, Math.ceil((expireAt - Date.now()) / 1000)) };
        try {
          return await chaos.conversation(properties);
        } catch {
          retried++; // a keyed create that failed in transit, counted and asked again
          return await chaos.conversation(properties);
        }
      };
      const createUpTo = (upTo: number) => Promise.all(Array.from({ length: 10 }, async () => {
        while (next < upTo) {
          next++;
          ids.push((await create()).conversationId);
        }
      }));
      await createUpTo(200);
      const perConversationMs = (performance.now() - createdStarted) / 200;
      expireAt = Date.now() + Math.round(perConversationMs * (count - 200) * 1.5) + 20_000;
      for (const c of ids) await chaos.api('POST', `/v2/conversations/${c}/end`);
      ids.length = 0;
      next = 0;
      await createUpTo(count);
      const createSeconds = (performance.now() - createdStarted) / 1000;
      console.log(`# created ${count} conversations in ${createSeconds.toFixed(1)} s (${retried} asked again); they expire ${((expireAt - Date.now()) / 1000).toFixed(0)} s later`);
      assert.ok(Date.now() < expireAt, 'created before they expire');

      // Settled in the order of their ids: the greatest is the last.
      const last = [...ids].sort().at(-1)!;
      const during = probe(chaos.process.url);
      const replies: number[] = [];
      while (Date.now() < expireAt) await sleep(200);
      const sweepStarted = performance.now();
      const deadline = Date.now() + 600_000;
      for (;;) {
        chaos.assertAlive();
        if ((await chaos.api('GET', `/v2/conversations/${last}`)).body?.status === 'ended') break;
        replies.push(await replyMs(client, 30_000));
        assert.ok(Date.now() < deadline, 'the conversations were settled within 10 minutes');
        await sleep(500);
      }
      const sweepSeconds = (performance.now() - sweepStarted) / 1000;
      await during.stop();
      const sweep = during.answers.filter((a) => a.at >= expireAt).map((a) => a.ms);
      const sweepFailures = during.failedAt.filter((at) => at >= expireAt).length;
      console.log(`# /healthz quiet: ${fmt(quiet.times)}`);
      console.log(`# /healthz while ${count} expired conversations were settled (${sweepSeconds.toFixed(1)} s): ${fmt(sweep)}, ${sweepFailures} failed`);
      console.log(`# live room replies quiet: ${quietReplies.map((r) => r.toFixed(0)).join(', ')} ms; during the sweep: ${fmt(replies)}`);
      assert.equal(sweepFailures, 0, '/healthz never failed');
      const bound = Math.max(100, 10 * percentile(quiet.times, 95));
      assert.ok(percentile(sweep, 95) < bound, `/healthz p95 during the sweep under ${bound.toFixed(0)} ms`);
      assert.ok(percentile(replies, 95) < Math.max(1000, 10 * Math.max(...quietReplies)), 'the live room kept answering');
      client.close();
    });
  });

  describe('20,000 idle upgrades from one address', () => {
    let chaos: ChaosService;
    before(async () => {
      chaos = await startChaosService();
    });
    after(() => chaos?.stop());

    it('refuses the address past its cap at once while /healthz and a valid join get in', async () => {
      const attempts = 20_000;
      const openAtOnce = 1000;
      const quiet = probe(chaos.process.url);
      await sleep(2000);
      await quiet.stop();
      const port = chaos.process.port;
      const conv = await chaos.conversation();

      const counts = { upgraded: 0, refused: 0, closed: 0, errors: 0 };
      const held: Array<ReturnType<typeof connect>> = [];
      let started = 0;
      const floodStarted = performance.now();
      const floodDeadline = Date.now() + 120_000;
      const one = () =>
        new Promise<void>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
          let text = '';
          let settled = false;
          const settle = (kind: keyof typeof counts) => {
            if (settled) return;
            settled = true;
            counts[kind]++;
            resolve();
          };
          socket.on('connect', () => socket.write(`GET /rooms/${conv.conversationId} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`));
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('latin1');
            if (text.startsWith('HTTP/1.1 101')) {
              held.push(socket); // idle from here on: never sends its join
              settle('upgraded');
            } else if (text.startsWith('HTTP/1.1 429')) {
              settle('refused');
              socket.destroy();
            }
          });
          socket.on('error', () => settle('errors'));
          socket.on('close', () => settle('closed'));
          socket.setTimeout(15_000, () => socket.destroy());
        });
      const flooding = Promise.all(Array.from({ length: openAtOnce }, async () => {
        while (started < attempts && Date.now() < floodDeadline) {
          started++;
          await one();
        }
      }));

      const during = probe(chaos.process.url);
      const fromFlooder = probe(chaos.process.url, 200, '127.0.0.2');
      await sleep(1000);
      // A visitor with a valid token joins and is answered while the flood goes on.
      const joinStarted = performance.now();
      const visitor = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
      await visitor.waitForEvent('conversation.replica.stopped_speaking', () => true, 20_000);
      const joinMs = performance.now() - joinStarted;
      await flooding;
      const floodSeconds = (performance.now() - floodStarted) / 1000;
      await during.stop();
      await fromFlooder.stop();
      chaos.assertAlive();
      // Once the flood is over, the service answers as before.
      const afterwards = await healthz(chaos.process.url);

      console.log(`# ${started} upgrades from 127.0.0.2 in ${floodSeconds.toFixed(1)} s (at most ${openAtOnce} open at once): ${counts.upgraded} upgraded (held idle), ${counts.refused} refused with 429, ${counts.closed} closed, ${counts.errors} errors`);
      console.log(`# /healthz quiet: ${fmt(quiet.times)}`);
      console.log(`# /healthz from 127.0.0.1 during the flood: ${fmt(during.times)}, ${during.failures} failed; from the flooding address: ${fromFlooder.times.length} answered, ${fromFlooder.failures} failed`);
      console.log(`# a valid join during the flood heard its greeting in ${joinMs.toFixed(0)} ms`);
      assert.equal(started, attempts, 'the flood made all its attempts');
      // 16 may wait at once; each is ended by the 10 s join timeout, and 16 more may come.
      assert.ok(counts.upgraded <= 16 * (Math.ceil(floodSeconds / 10) + 2), `only the address's share of idle upgrades was taken (${counts.upgraded})`);
      assert.ok(counts.refused > attempts / 2, 'the rest were refused at once');
      assert.equal(during.failures, 0, '/healthz from another address never failed');
      assert.ok(during.times.length > 0);
      const bound = Math.max(100, 10 * percentile(quiet.times, 95));
      assert.ok(percentile(during.times, 95) < bound * 5, `/healthz p95 during the flood within ${(bound * 5).toFixed(0)} ms`);
      assert.ok(afterwards !== null, '/healthz answered after the flood');
      visitor.close();
      for (const s of held) s.destroy();
    });
  });
});
