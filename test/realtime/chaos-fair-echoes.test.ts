// Chaos: fairness by cost. Thirty visitors, each in a room of its own and each within its budget, keep
// their PALs reading 3,990-character echoes without a full stop (one "sentence" to the synthesiser before
// texts were cut into bounded pieces), while a bystander in another room asks its PAL short questions.
// The bystander's reply starts within 500 ms of its quiet replies (p95), measured in the same run.
// The scenario is test/helpers/chaos-scenarios/fair-echoes.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, reportReplies } from '../helpers/chaos.js';
import { fairEchoes } from '../helpers/chaos-scenarios/fair-echoes.js';

describe(
  'chaos: thirty visitors keep their PALs reading long echoes',
  { timeout: 240_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" },
  () => {
    it("another room's reply starts within 500 ms of its quiet replies (p95)", async () => {
      const { summary, visitors, speaking, quiet, busy } = await fairEchoes.run();
      console.log(`# ${summary}`);
      reportReplies('fair echoes', quiet, busy, percentile(quiet, 95) + 500);
      assert.ok(speaking >= visitors - 2, `${speaking} of ${visitors} rooms spoke their echoes`);
      assert.ok(
        percentile(busy, 95) < percentile(quiet, 95) + 500,
        `the bystander's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms (quiet p95 ${percentile(quiet, 95).toFixed(0)} ms)`,
      );
    });
  },
);
