// palkit's Daily runner end to end, in real time: a Daily conversation (against the fake Daily REST API)
// starts the real runner process, whose headless Chromium page bridges into the PAL's local room; the
// page's call object is the recording stand-in of test/helpers/daily-runner-page-standin.ts (daily-js
// cannot reach Daily here). Checks that the runner joined, published the PAL's face and voice as live
// tracks (the stand-in heard and saw them), and that the PAL answered what the Daily visitor said.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DAILY_KEY, startFakeDaily } from '../helpers/fake-daily.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { createPal } from '../helpers/fixtures.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/live-fixtures.js';
import { onPostgres, startListeningService, type TestService } from '../helpers/service.js';
import { waitFor } from '../helpers/wait-for.js';
import { reportFigure } from '../helpers/figures.js';
import { cpuSeconds, processTree, pssMb } from '../helpers/process-cost.js';
import { runnerPagesFor } from '../../src/server/live/runner/pages.js';
import { loadTranscript } from '../../src/server/resources/conversations/transcript-store.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** How long the runner's CPU is measured for, mid-call. */
const COST_WINDOW_MS = 5000;
const ENTRY = fileURLToPath(new URL('../helpers/daily-runner-page-standin.ts', import.meta.url));

describe("palkit's Daily runner page, in Chromium", { skip: onPostgres && 'one leg is enough: nothing here is database-specific' }, () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let llm: FakeLlm;
  let receiver: CallbackReceiver;
  let t: TestService;

  before(async () => {
    [daily, llm, receiver] = await Promise.all([startFakeDaily(), startFakeLlm(), startCallbackReceiver()]);
    llm.reply = ['Glad', ' to', ' hear', ' it.'];
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_RUNNER_ENTRY: ENTRY,
      PALKIT_DAILY_RUNNER_PAGES: '2',
      PALKIT_LLM_BASE_URL: llm.baseUrl,
      PALKIT_LLM_MODEL: 'fake',
    });
  });
  after(async () => {
    await t.close();
    await Promise.all([daily.close(), llm.close(), receiver.close()]);
  });

  it('joins, publishes a live face and voice, and the PAL answers the Daily visitor', async () => {
    // The built-in face Ada, drawn by the elements' face code in the runner's page.
    const { palId } = await createPal(t, {
      pal_name: 'Ada',
      system_prompt: 'You are Ada.',
      pipeline_mode: 'full',
      default_face_id: 'rpalkitada',
    });
    const startedAt = performance.now();
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id: string = r.body.conversation_id;
    const pages = runnerPagesFor(t.service.deps);
    const pid = pages.state(id)?.pid;
    await waitFor(() => pages.state(id)?.joined, { timeout: 30_000, interval: 50, what: () => 'the runner page joined' });
    const joinedMs = performance.now() - startedAt;
    await waitFor(() => pages.state(id)?.published.length === 2, { timeout: 20_000, interval: 50, what: () => 'face and voice published' });
    const heard = await waitFor(
      async () => (await loadTranscript(t.service.deps.db, id)).find((e) => e.role === 'user' && e.content.startsWith('hello')),
      { timeout: 30_000, interval: 100, what: () => 'the visitor heard and saw the PAL' },
    );
    const [, peak, width, height] = /at ([\d.]+) and see you at (\d+)x(\d+)/.exec(heard.content) ?? [];
    assert.ok(Number(peak) >= 0.02, heard.content);
    assert.ok(Number(width) > 0 && Number(height) > 0, heard.content);
    await waitFor(
      async () =>
        (await loadTranscript(t.service.deps.db, id)).some((e) => e.role === 'assistant' && e.content.includes('Glad to hear it.')),
      { timeout: 20_000, interval: 100, what: () => 'the PAL answered' },
    );
    const answeredMs = performance.now() - startedAt;
    // What one Daily PAL costs: the runner's process tree (node, Chromium and its zygote, renderer, GPU and
    // utility processes, some in sessions of their own), mid-call.
    const tree = processTree(pid!);
    const rssMb = tree.reduce((sum, p) => sum + p.rssKb, 0) / 1024;
    // Its steady cost: CPU over a window of the call after the answer (the face drawing at 25 fps, the
    // page bridging both ways), and its memory with shared pages counted once (PSS).
    const pids = tree.map((p) => p.pid);
    const windowStart = { cpu: cpuSeconds(pids), at: performance.now() };
    await new Promise((r) => setTimeout(r, COST_WINDOW_MS));
    const core = (cpuSeconds(pids) - windowStart.cpu) / ((performance.now() - windowStart.at) / 1000);
    const pss = pssMb(pids);
    console.log(
      `daily runner page: joined ${Math.round(joinedMs)} ms, answered ${Math.round(answeredMs)} ms after the start; ` +
        `${tree.length} processes, ${Math.round(pss)} MB proportional (${Math.round(rssMb)} MB summed resident), ` +
        `${Math.round(core * 100)} % of a core over ${COST_WINDOW_MS / 1000} s mid-call (${heard.content})`,
    );
    reportFigure({ name: 'daily runner page: memory (PSS)', value: pss, unit: 'MB', better: 'lower' });
    reportFigure({ name: 'daily runner page: CPU mid-call', value: core * 100, unit: '% of a core', better: 'lower' });
    assert.equal(receiver.bodies.filter((b) => b.conversation_id === id && b.event_type === 'system.pal_joined').length, 1);
    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    await waitFor(() => pages.state(id) === null, { timeout: 5000, what: () => 'the runner ended' });
    const gone = () => {
      try {
        process.kill(pid!, 0);
        return false;
      } catch {
        return true;
      }
    };
    await waitFor(gone, { timeout: 5000, what: () => 'the runner process gone' });
    // Its Chromium goes with it, renderers included.
    await waitFor(() => tree.every((p) => !alive(p.pid)), { timeout: 5000, what: () => `the runner's Chromium gone` });
  });
});
