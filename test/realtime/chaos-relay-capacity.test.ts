// Chaos: the relay carries what budgets allow. Thirty visitors whose rooms instance A holds are connected
// to instance B, each speaking 16 kHz microphone audio in real time (20 ms frames), so that everything
// they say crosses the instance channel (LISTEN/NOTIFY on the shared PostgreSQL). Nothing is shed, on
// either instance, and a relayed bystander's replies stay within 500 ms of its quiet ones.
// PostgreSQL leg only: PGlite's database belongs to one process.
// The scenario is test/helpers/chaos-scenarios/relay-capacity.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentile, reportReplies } from '../helpers/chaos.js';
import { onPostgres } from '../helpers/service.js';
import { relayCapacity } from '../helpers/chaos-scenarios/relay-capacity.js';

describe(
  'chaos: thirty visitors relayed through a second instance speak in real time',
  { skip: !onPostgres && 'the PostgreSQL leg only (PALKIT_TEST_DATABASE_URL)', timeout: 240_000 },
  () => {
    it('nothing they say is shed, and a relayed bystander answers as when the channel was quiet', async () => {
      const { summary, sent, shed, overBudget, quiet, busy } = await relayCapacity.run();
      console.log(`# ${summary}`);
      reportReplies('relay capacity', quiet, busy, percentile(quiet, 95) + 500);
      assert.equal(shed, 0, `${shed} payloads shed (${((shed / Math.max(1, sent)) * 100).toFixed(1)} % of the frames)`);
      assert.equal(overBudget, 0, 'real-time audio stays within every budget');
      assert.ok(
        percentile(busy, 95) < percentile(quiet, 95) + 500,
        `the relayed bystander's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms`,
      );
    });
  },
);
