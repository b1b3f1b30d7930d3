// Chaos: one tenant's speech items must not slow every tenant's calls. Owner 2 queues 40 speech items of
// 5,000 characters (the cap raised so that all of them queue); while they are generated and at least
// three of them finish, owner 1's visitor asks its PAL short questions. Background synthesis yields to
// live rooms (a background lane of the local voice, the render tools at the lowest CPU priority), and a
// finished item's audio (megabytes) is written to a file with async fs, not into the embedded database on
// the service's thread (which stalled it 400–780 ms per item). The tools start from a small launcher
// process, not by forking the ~1 GB service (50–170 ms of its event loop per spawn), and the wasm voice's
// WAV is one byte copy per run of samples (it was 130–200 ms sample by sample), so the visitor's replies start as they did
// before the items were queued — median within 3× and p95 within 500 ms of the quiet figures — and the
// service's longest event-loop stall stays within 250 ms of its quiet one, same run.
// At load 5–8 on 2 cores the busy stall was 38–78 ms (native) and 75–181 ms (wasm) against quiet 13–31 ms,
// and main's code before the launcher 78–91 / 169–217 ms: it fails this bar only on a busier machine,
// where each fork costs more (319 vs 65, 1246 vs 79, 500 vs 35 ms at load 14–20). There, too, the service
// can wait 0.2–3 s on the run queue with no CPU at all, which no code of ours prevents: the bar can then
// fail on scheduling alone.
// The scenario is test/helpers/chaos-scenarios/speech-queue.ts (also run by `npm run bench -- chaos`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onPostgres } from '../helpers/service.js';
import { percentile, reportReplies } from '../helpers/chaos.js';
import { reportFigure } from '../helpers/figures.js';
import { speechQueue } from '../helpers/chaos-scenarios/speech-queue.js';

for (const voice of ['native', 'wasm'] as const) {
  describe(
    `chaos: another owner's speech items queue while a call goes on (${voice} voice)`,
    { timeout: 360_000, skip: onPostgres && "the room's chaos runs once, on the PGlite leg" },
    () => {
      it("owner 1's replies start as quickly as before owner 2's items were queued", async () => {
        const { summary, finished, quiet, busy, quietStallMs, busyStallMs } = await speechQueue(voice).run();
        console.log(`# ${summary}`);
        reportReplies(`speech queue, ${voice} voice`, quiet, busy, percentile(quiet, 95) + 500);
        reportFigure({
          name: `speech queue, ${voice} voice: longest event-loop stall`,
          value: busyStallMs,
          unit: 'ms',
          better: 'lower',
          bar: `< ${Math.round(quietStallMs + 250)} (quiet + 250)`,
          met: busyStallMs < quietStallMs + 250,
        });
        assert.ok(finished >= 1, 'items finished (their audio stored) while the replies were measured');
        assert.ok(
          busyStallMs < quietStallMs + 250,
          `the service's event loop stalled ${busyStallMs.toFixed(0)} ms (quiet ${quietStallMs.toFixed(0)} ms)`,
        );
        assert.ok(
          percentile(busy, 50) < 3 * percentile(quiet, 50) + 50,
          `median ${percentile(busy, 50).toFixed(0)} ms against quiet ${percentile(quiet, 50).toFixed(0)} ms`,
        );
        assert.ok(
          percentile(busy, 95) < percentile(quiet, 95) + 500,
          `owner 1's replies took ${busy.map((r) => r.toFixed(0)).join(', ')} ms`,
        );
      });
    },
  );
}
