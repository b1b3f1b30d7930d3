// Chaos: HTTP slowloris. 200 connections from one address (127.0.0.2, within its 256-connection cap) send
// a request's headers one byte every 100 ms, never finishing them, while /healthz is asked from another
// address and a visitor starts a conversation and joins it. The header timeout (PALKIT_HEADERS_TIMEOUT_MS,
// set to its least, 1 s, to keep the test short) cuts each slow one: none outlives the timeout plus
// Node's checking interval (equal to the timeout here) and a margin, none is cut before the timeout;
// /healthz never fails and stays within 10× its quiet p95 (or 100 ms), the join hears its greeting. The
// refusals show in /metrics (request_timeout).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { percentile, startChaosService } from '../helpers/chaos.js';
import { RoomClient } from '../helpers/live-fixtures.js';
import { onPostgres } from '../helpers/service.js';
import { fmtTimes, probeHealth, quietHealth } from '../helpers/chaos-scenarios/healthz-probe.js';

const TIMEOUT_MS = 1000;
const SLOW = 200;
const REQUEST = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow-' + 'x'.repeat(200) + '\r\n';

describe('chaos: slowloris', { skip: onPostgres && "the front door's chaos runs once, on the PGlite leg", timeout: 120_000 }, () => {
  it('cuts connections that send headers byte by byte at the header timeout while /healthz and a join get in', async () => {
    const chaos = await startChaosService({ PALKIT_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS) });
    try {
      const quiet = await quietHealth(chaos.process.url);
      const lifetimes: number[] = [];
      let answered = 0;
      const slow = Array.from(
        { length: SLOW },
        () =>
          new Promise<void>((resolve) => {
            const opened = performance.now();
            const socket = connect({ port: chaos.process.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
            let sent = 0;
            const drip = setInterval(() => {
              if (socket.writable) socket.write(REQUEST[sent++ % REQUEST.length]!);
            }, 100);
            socket.on('data', (chunk: Buffer) => {
              if (!chunk.toString('latin1').startsWith('HTTP/1.1 408')) answered++;
            });
            socket.on('error', () => undefined);
            socket.on('close', () => {
              clearInterval(drip);
              lifetimes.push(performance.now() - opened);
              resolve();
            });
            // Far past any bound: the test's own guard, counted as a lifetime that long.
            socket.setTimeout(30_000, () => socket.destroy());
          }),
      );
      const during = probeHealth(chaos.process.url);
      const conv = await chaos.conversation();
      const joinStarted = performance.now();
      const visitor = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
      await visitor.waitForEvent('conversation.replica.stopped_speaking', () => true, 20_000);
      const joinMs = performance.now() - joinStarted;
      visitor.close();
      await Promise.all(slow);
      await during.stop();
      const metrics = await (await fetch(`${chaos.process.url}/metrics`)).text();
      const timeouts = Number(/^palkit_connections_refused_total\{reason="request_timeout"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
      chaos.assertAlive();
      console.log(
        `# ${SLOW} slowloris connections (header timeout ${TIMEOUT_MS} ms): cut after ${fmtTimes(lifetimes)}; ${answered} got anything but a 408; request_timeout in /metrics ${timeouts}`,
      );
      console.log(
        `# /healthz quiet ${fmtTimes(quiet)}; during ${fmtTimes(during.times)}, ${during.failures} failed; a join heard its greeting in ${joinMs.toFixed(0)} ms`,
      );
      assert.equal(answered, 0, 'no slow request was served');
      assert.ok(Math.min(...lifetimes) >= TIMEOUT_MS * 0.9, `none cut before the timeout (${Math.min(...lifetimes).toFixed(0)} ms)`);
      // Node checks every connectionsCheckingInterval (the timeout here): at most twice the timeout, and a margin.
      assert.ok(percentile(lifetimes, 95) < TIMEOUT_MS * 4, `cut at the header timeout (p95 ${percentile(lifetimes, 95).toFixed(0)} ms)`);
      assert.ok(timeouts >= SLOW * 0.9, `the cuts are counted (${timeouts})`);
      assert.equal(during.failures, 0, '/healthz never failed');
      const bound = Math.max(100, 10 * percentile(quiet, 95));
      assert.ok(percentile(during.times, 95) < bound, `/healthz p95 within ${bound.toFixed(0)} ms`);
    } finally {
      await chaos.stop();
    }
  });
});
