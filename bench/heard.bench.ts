// What a visitor hears of typed questions (issue 26, goal < 1 s): the real built element (after
// `npm run build`) in Chromium against the service process, an echo PAL at the service's speaking pace,
// N typed questions. Prints p50/p95 of the element's own `pal-turn-latency` heardMs, how far it is from
// an analyser this bench runs on the PAL's audio track, and where the time went, stage by stage (the
// service's debug marks and the page's probes, see heard-stages.ts). BENCH_HEARD_TURNS sets N (20);
// BENCH_HEARD_VERBOSE=1 prints each turn's stages too.
import { loadavg } from 'node:os';
import { startWorld, type World } from '../test/helpers/e2e-world.js';
import { askTyped, openHeardCall, untilSilent } from '../test/helpers/heard-call.js';
import { formatStages, pageMarks, serviceMarks, stageProbes, type TurnMarks } from './heard-stages.js';
import { percentile } from './rooms-report.js';

const TURNS = Number(process.env.BENCH_HEARD_TURNS ?? 20);
const QUESTIONS = ['How long does delivery take?', 'Can I return a bike?', 'Do you have cargo bikes?', 'When do you open?'];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

export default async function heard(): Promise<void> {
  const loadBefore = load();
  // The service's pace (not the tests' 2000 words a minute), and its debug marks of each reply's stages.
  const world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '160', PALKIT_LOG: 'debug' });
  try {
    await assertBuilt(world);
    const { page } = await openHeardCall(world, { init: [stageProbes] });
    await untilSilent(page, { afterSound: true });
    const heard: number[] = [];
    const deltas: number[] = [];
    const stages: TurnMarks[] = [];
    let unheard = 0;
    for (let turn = 0; turn < TURNS; turn++) {
      const { sentAt, report, analysedMs } = await askTyped(page, QUESTIONS[turn % QUESTIONS.length]!);
      await untilSilent(page);
      // A reply the element could not hear (no audible sample reached the output) has no figure.
      if (report.heardMs === undefined) {
        unheard++;
        continue;
      }
      heard.push(report.heardMs);
      if (analysedMs !== undefined) deltas.push(Math.abs(report.heardMs - analysedMs));
      const marks: TurnMarks = {
        sent: report.turnEndedAt,
        heard: report.turnEndedAt + report.heardMs,
        ...serviceMarks(world.service.output(), report.inference_id),
        ...(await pageMarks(page, sentAt)),
      };
      stages.push(marks);
      if (process.env.BENCH_HEARD_VERBOSE)
        console.log(
          `  turn ${turn + 1}: heard ${report.heardMs} ms, analyser ${analysedMs?.toFixed(0) ?? '—'} ms; ${formatStages([marks])}`,
        );
    }
    await page.context().close();
    const ms = (values: number[], q: number) => (values.length ? `${percentile(values, q).toFixed(0)} ms` : '—');
    console.log(
      `heard: typed p50 ${ms(heard, 0.5)}, p95 ${ms(heard, 0.95)} over ${heard.length} turns (element vs analyser p95 |Δ| ${ms(deltas, 0.95)})` +
        (unheard ? `; ${unheard} replies not heard` : ''),
    );
    console.log(`  ${formatStages(stages)}`);
    console.log(`  load average before ${loadBefore}, after ${load()} (${TURNS} turns, echo PAL, local voice)`);
  } finally {
    await world.close();
  }
}

/** The element under test is the built one: without `npm run build` the service has no palkit.js to serve. */
async function assertBuilt(world: World): Promise<void> {
  const response = await fetch(`${world.serviceUrl}/palkit.js`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the service has no built element (${response.status} for /palkit.js): run \`npm run build\` first`);
}
