// 20,000 idle WebSocket upgrades from one address (127.0.0.2, at most 1,000 open at once on this side:
// the test process has its own descriptor limit) that never send their join, while /healthz is asked from
// another address and from the flooding one, and a visitor with a valid token joins. Figures: upgrades
// taken, refused (429) and closed; /healthz quiet and during; the valid join's time to its greeting.
import { connect, type Socket } from 'node:net';
import { startChaosService } from '../chaos.js';
import { RoomClient, sleep } from '../live-fixtures.js';
import { fmtTimes, healthz, probeHealth, quietHealth } from './healthz-probe.js';
import type { ChaosFigures, ChaosScenario } from './scenario.js';

export interface IdleUpgradesFigures extends ChaosFigures {
  attempts: number;
  started: number;
  floodSeconds: number;
  counts: { upgraded: number; refused: number; closed: number; errors: number };
  quietHealth: number[];
  duringHealth: number[];
  duringFailures: number;
  joinMs: number;
  /** /healthz once the flood is over (null: it failed). */
  afterwards: number | null;
}

export function idleUpgrades(attempts = 20_000, openAtOnce = 1000): ChaosScenario<IdleUpgradesFigures> {
  return {
    name: `${attempts.toLocaleString('en')} idle upgrades from one address`,
    async run() {
      const chaos = await startChaosService();
      const held: Socket[] = [];
      let visitor: RoomClient | undefined;
      try {
        const quiet = await quietHealth(chaos.process.url);
        const port = chaos.process.port;
        const conv = await chaos.conversation();

        const counts = { upgraded: 0, refused: 0, closed: 0, errors: 0 };
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
            socket.on('connect', () =>
              socket.write(
                `GET /rooms/${conv.conversationId} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
              ),
            );
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
        const flooding = Promise.all(
          Array.from({ length: openAtOnce }, async () => {
            while (started < attempts && Date.now() < floodDeadline) {
              started++;
              await one();
            }
          }),
        );

        const during = probeHealth(chaos.process.url);
        const fromFlooder = probeHealth(chaos.process.url, 200, '127.0.0.2');
        await sleep(1000);
        // A visitor with a valid token joins and is answered while the flood goes on.
        const joinStarted = performance.now();
        visitor = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
        await visitor.waitForEvent('conversation.replica.stopped_speaking', () => true, 20_000);
        const joinMs = performance.now() - joinStarted;
        await flooding;
        const floodSeconds = (performance.now() - floodStarted) / 1000;
        await during.stop();
        await fromFlooder.stop();
        chaos.assertAlive();
        // Once the flood is over, the service answers as before.
        const afterwards = await healthz(chaos.process.url);
        const summary =
          `${started} upgrades from 127.0.0.2 in ${floodSeconds.toFixed(1)} s (at most ${openAtOnce} open at once): ${counts.upgraded} upgraded (held idle), ${counts.refused} refused with 429, ${counts.closed} closed, ${counts.errors} errors; ` +
          `/healthz quiet ${fmtTimes(quiet)}, from 127.0.0.1 during ${fmtTimes(during.times)}, ${during.failures} failed (from the flooding address ${fromFlooder.times.length} answered, ${fromFlooder.failures} failed); ` +
          `a valid join heard its greeting in ${joinMs.toFixed(0)} ms`;
        return {
          summary,
          attempts,
          started,
          floodSeconds,
          counts,
          quietHealth: quiet,
          duringHealth: during.times,
          duringFailures: during.failures,
          joinMs,
          afterwards,
        };
      } finally {
        visitor?.close();
        for (const s of held) s.destroy();
        await chaos.stop();
      }
    },
  };
}
