// End to end, in Chromium against the service process (issue 26): the element measures what the visitor
// hears of each reply — from the typed question sent to the PAL's first audible sample at the output,
// and to its first mouth movement drawn — and fires `pal-turn-latency`. The test checks the figure
// against its own analyser on the stage's audio track, then finds the same figures in the service:
// the verbose conversation read, /metrics, and application.transcription_ready.
import assert from 'node:assert/strict';
import { reportFigure } from '../../helpers/figures.js';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { eventually, startWorld, type World } from '../../helpers/e2e-world.js';
import { askTyped, openHeardCall, turnLatencies, untilSilent } from '../../helpers/heard-call.js';

const QUESTION = 'How loud is the first word of this answer?';

describe('heard latency measured in the page', { timeout: 120_000 }, () => {
  let world: World;
  let page: Page;
  let conversationId = '';

  before(async () => {
    world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '600' });
    ({ page, conversationId } = await openHeardCall(world, { callbackUrl: `${world.receiver.url}/turn-latency` }));
  });
  after(async () => {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await world?.close();
  });

  it("a typed question's heardMs agrees with the test's own analyser within 150 ms", async () => {
    // The greeting is no answer to a turn: it is not measured.
    await untilSilent(page, { afterSound: true });
    assert.deepEqual(await turnLatencies(page), []);
    const { report, analysedMs } = await askTyped(page, QUESTION);
    assert.ok(analysedMs !== undefined, 'the analyser heard the answer');
    const { heardMs, mouthMs, lipSyncMs } = report;
    console.log(`heard: element ${heardMs} ms, analyser ${Math.round(analysedMs)} ms; mouth ${mouthMs} ms; lip sync p95 ${lipSyncMs} ms`);
    assert.equal(report.input, 'text');
    assert.equal(typeof report.inference_id, 'string');
    assert.ok(Math.abs(report.turnEndedAt - (Date.now() - 60_000)) < 120_000, 'turnEndedAt is epoch ms');
    assert.ok(heardMs !== undefined && heardMs > 0, `heardMs ${heardMs} measured`);
    // Issue 26's goal is under 1 s: reported, not asserted (`npm run bench -- heard` measures it over many turns).
    console.log(`# heardMs ${heardMs} (goal < 1000 ms)`);
    reportFigure({ name: 'chromium, typed question: heard latency', value: heardMs, unit: 'ms', better: 'lower' });
    reportFigure({
      name: 'chromium, typed question: heardMs vs analyser',
      value: Math.abs(heardMs - analysedMs),
      unit: 'ms',
      better: 'lower',
      bar: '≤ 150',
      met: Math.abs(heardMs - analysedMs) <= 150,
    });
    if (mouthMs !== undefined)
      reportFigure({
        name: 'chromium, typed question: mouth after voice',
        value: mouthMs - heardMs,
        unit: 'ms',
        better: 'lower',
        bar: '-40 to 300',
        met: mouthMs >= heardMs - 40 && mouthMs - heardMs < 300,
      });
    if (lipSyncMs !== undefined)
      reportFigure({
        name: 'chromium, typed question: lip sync p95',
        value: lipSyncMs,
        unit: 'ms',
        better: 'lower',
        bar: '≤ 100',
        met: lipSyncMs >= 0 && lipSyncMs <= 100,
      });
    assert.ok(Math.abs(heardMs - analysedMs) <= 150, `heardMs ${heardMs} vs analyser ${Math.round(analysedMs)} ms`);
    // The built-in face is drawn: the mouth moves with the voice (the first sound may be a closed-mouth shape).
    assert.ok(mouthMs !== undefined && mouthMs >= heardMs - 40 && mouthMs - heardMs < 300, `mouthMs ${mouthMs} with heardMs ${heardMs}`);
    assert.ok(lipSyncMs !== undefined && lipSyncMs >= 0 && lipSyncMs <= 100, `lip sync p95 ${lipSyncMs} ms`);

    // The same figures reached the service: the verbose read, /metrics, then the transcription callback.
    const read = await eventually(
      () => world.api('GET', `/v2/conversations/${conversationId}?verbose=true`),
      (r) => (r.body as any)?.turn_latencies?.length === 1,
      'the stored report',
    );
    const stored = (read.body as any).turn_latencies[0];
    assert.deepEqual(stored, {
      inference_id: report.inference_id,
      input: 'text',
      turn_ended_at: report.turnEndedAt,
      heard_ms: heardMs,
      mouth_ms: mouthMs,
      lip_sync_ms: lipSyncMs,
    });
    const metrics = await (await fetch(`${world.serviceUrl}/metrics`)).text();
    assert.match(metrics, /^palkit_turn_heard_seconds_count\{input="text"\} 1$/m);
    // The report sits in its bucket: counted at 1 s when heard within a second, not counted there otherwise.
    assert.match(metrics, new RegExp(`^palkit_turn_heard_seconds_bucket\\{le="1",input="text"\\} ${heardMs <= 1000 ? 1 : 0}$`, 'm'));
    await page.locator('pal-controls [part="end"]').click();
    const ready = await eventually(
      async () =>
        world.receiver.received
          .map((r) => r.body)
          .find((b: any) => b.conversation_id === conversationId && b.event_type === 'application.transcription_ready') as any,
      (b) => b !== undefined,
      'application.transcription_ready',
      20_000,
    );
    assert.deepEqual(ready.properties.turn_latency.heard_ms, { count: 1, p50: heardMs, p95: heardMs });
  });
});
