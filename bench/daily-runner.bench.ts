// What concurrent Daily PALs cost on palkit's own runner (issue 56): N Daily conversations at once, each a
// real runner process with its headless Chromium page bridging into the PAL's local room (daily-js's call
// object is the real-time tests' stand-in, test/helpers/daily-runner-page-standin.ts, as Daily cannot be
// reached from here; its visitor says hello once the PAL's face and voice are live, and the PAL answers).
// Once every PAL has answered, each runner's process tree is measured over a window: CPU (share of one
// core) and memory (PSS: shared pages counted once), and the service process's own CPU beside them.
// `npm run bench -- daily-runner`. BENCH_DAILY_PAGES (default 2), BENCH_DAILY_SECONDS (default 10).
import { fileURLToPath } from 'node:url';
import { DAILY_KEY, startFakeDaily } from '../test/helpers/fake-daily.js';
import { startFakeLlm } from '../test/helpers/fake-llm.js';
import { createPal } from '../test/helpers/fixtures.js';
import { cpuSeconds, processTree, pssMb } from '../test/helpers/process-cost.js';
import { startListeningService } from '../test/helpers/service.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { runnerPagesFor } from '../src/server/live/runner/pages.js';
import { loadTranscript } from '../src/server/resources/conversations/transcript-store.js';

const pages = Number(process.env.BENCH_DAILY_PAGES ?? 2);
const seconds = Number(process.env.BENCH_DAILY_SECONDS ?? 10);
const ENTRY = fileURLToPath(new URL('../test/helpers/daily-runner-page-standin.ts', import.meta.url));

export default async function run(): Promise<void> {
  const [daily, llm] = await Promise.all([startFakeDaily(), startFakeLlm()]);
  llm.reply = ['Glad', ' to', ' hear', ' it.'];
  const t = await startListeningService({
    PALKIT_DAILY_API_KEY: DAILY_KEY,
    PALKIT_DAILY_API_URL: daily.url,
    PALKIT_DAILY_RUNNER_ENTRY: ENTRY,
    PALKIT_DAILY_RUNNER_PAGES: String(pages),
    PALKIT_LLM_BASE_URL: llm.baseUrl,
    PALKIT_LLM_MODEL: 'fake',
  });
  const runners = runnerPagesFor(t.service.deps);
  try {
    const { palId } = await createPal(t, {
      pal_name: 'Ada',
      system_prompt: 'You are Ada.',
      pipeline_mode: 'full',
      default_face_id: 'rpalkitada',
    });
    const startedAt = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < pages; i++) {
      const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
      if (r.status !== 200) throw new Error(`start ${i + 1}: ${r.status} ${JSON.stringify(r.body)}`);
      ids.push(r.body.conversation_id);
    }
    const answered = async (id: string) =>
      (await loadTranscript(t.service.deps.db, id)).some((e) => e.role === 'assistant' && e.content.includes('Glad to hear it.'));
    await waitFor(async () => (await Promise.all(ids.map(answered))).every(Boolean), {
      timeout: 60_000 * pages,
      interval: 200,
      what: () => 'every PAL answered its Daily visitor',
    });
    const readyMs = performance.now() - startedAt;
    const trees = ids.map((id) => processTree(runners.state(id)!.pid!).map((p) => p.pid));
    const before = { cpu: trees.map(cpuSeconds), service: process.cpuUsage(), at: performance.now() };
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (performance.now() - before.at) / 1000;
    const cores = trees.map((pids, i) => (cpuSeconds(pids) - before.cpu[i]!) / elapsed);
    const memory = trees.map(pssMb);
    const service = process.cpuUsage(before.service);
    const serviceCore = (service.user + service.system) / 1e6 / elapsed;
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(
      `${pages} Daily PALs at once, all answered ${(readyMs / 1000).toFixed(1)} s after the first start; over ${elapsed.toFixed(1)} s:`,
    );
    for (const [i, id] of ids.entries())
      console.log(`  ${id}: ${trees[i]!.length} processes, ${Math.round(memory[i]!)} MB (PSS), ${Math.round(cores[i]! * 100)} % of a core`);
    console.log(
      `  runners: ${Math.round(sum(memory))} MB, ${Math.round(sum(cores) * 100)} % of a core (${Math.round(sum(memory) / pages)} MB and ${Math.round((sum(cores) / pages) * 100)} % each); ` +
        `the service process (rooms, voice, bench): ${Math.round(serviceCore * 100)} % of a core`,
    );
    for (const id of ids) await t.api('POST', `/v2/conversations/${id}/end`);
    await waitFor(() => runners.size === 0, { timeout: 10_000, what: () => 'the runners ended' });
  } finally {
    await t.close();
    await Promise.all([daily.close(), llm.close()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
