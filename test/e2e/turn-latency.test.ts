// End to end, in Chromium against the service process (issue 26): the element measures what the visitor
// hears of each reply — from the typed question sent to the PAL's first audible sample at the output,
// and to its first mouth movement drawn — and fires `pal-turn-latency`. The test checks the figure
// against its own analyser on the stage's audio track, then finds the same figures in the service:
// the verbose conversation read, /metrics, and application.transcription_ready.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createDeployment, createPal, customerPage, eventually, openPage, palEvents, startWorld, type World } from '../helpers/e2e-world.js';

const QUESTION = 'How loud is the first word of this answer?';

// The PAL's voice as the visitor hears it: an analyser on the stage's audio element's stream, polled
// every 10 ms, run by the test (not by the element).
const analyser = `
window.__level = { samples: [] };
function deep(root, selector) {
  const found = root.querySelector(selector);
  if (found) return found;
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
  return null;
}
window.__listen = () => {
  const audio = deep(document, 'pal-stage')?.shadowRoot?.querySelector('audio');
  if (!audio || !(audio.srcObject instanceof MediaStream)) return false;
  const context = new AudioContext();
  const node = context.createAnalyser();
  node.fftSize = 256;
  context.createMediaStreamSource(audio.srcObject).connect(node);
  const data = new Float32Array(node.fftSize);
  setInterval(() => {
    node.getFloatTimeDomainData(data);
    let peak = 0;
    for (const v of data) peak = Math.max(peak, Math.abs(v));
    window.__level.samples.push({ at: performance.now(), peak });
  }, 10);
  return true;
};
`;

/** About −50 dBFS: the echo PAL's tone-like voice is far louder, silence far quieter. */
const AUDIBLE = 0.003;

describe('heard latency measured in the page', { timeout: 120_000 }, () => {
  let world: World;
  let page: Page;
  let conversationId = '';

  before(async () => {
    world = await startWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '600' });
    const palId = await createPal(world, { pal_name: 'Latency PAL', custom_greeting: 'Hi.', default_face_id: 'rpalkitada', disclosure_type: 'off' });
    const id = await createDeployment(world, {
      pal_id: palId, channel: 'widget', allowed_origins: [world.siteOrigin], customization: { show_haircheck: false },
      callback_url: `${world.receiver.url}/turn-latency`,
    });
    page = await openPage(world);
    await page.context().addInitScript(analyser);
    await page.goto(world.sitePage(`/latency-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
    await page.locator('pal-widget [part="launcher"]').click();
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-controls [part="end"]').waitFor();
    conversationId = (await palEvents(page)).find((e) => e.type === 'pal-conversation-started')!.detail.conversationId;
    await eventually(() => page.evaluate(() => (window as any).__listen()), (ok) => ok === true, "the PAL's audio element with a MediaStream");
  });
  after(async () => {
    await page?.context().close().catch(() => undefined);
    await world?.close();
  });

  const levels = (): Promise<Array<{ at: number; peak: number }>> => page.evaluate(() => (window as any).__level.samples);
  const latencies = async () => (await palEvents(page)).filter((e) => e.type === 'pal-turn-latency').map((e) => e.detail);

  it("a typed question's heardMs agrees with the test's own analyser within 150 ms", async () => {
    // The greeting is no answer to a turn: it is not measured.
    await eventually(levels, (all) => all.length > 50 && all.slice(-30).every((s) => s.peak < AUDIBLE), 'silence after the greeting', 20_000);
    assert.deepEqual(await latencies(), []);
    const sentAt: number = await page.evaluate((text) => {
      (document.querySelector('pal-widget') as any).sendChat(text);
      return performance.now();
    }, QUESTION);
    const [report] = await eventually(latencies, (all) => all.length === 1, 'pal-turn-latency', 20_000);
    const heard = (await levels()).find((s) => s.at > sentAt && s.peak > AUDIBLE);
    assert.ok(heard, 'the analyser heard the answer');
    const analysed = heard.at - sentAt;
    console.log(`heard: element ${report.heardMs} ms, analyser ${Math.round(analysed)} ms; mouth ${report.mouthMs} ms; lip sync p95 ${report.lipSyncMs} ms`);
    assert.equal(report.input, 'text');
    assert.equal(typeof report.inference_id, 'string');
    assert.ok(Math.abs(report.turnEndedAt - (Date.now() - 60_000)) < 120_000, 'turnEndedAt is epoch ms');
    assert.ok(report.heardMs > 0, `heardMs ${report.heardMs} measured`);
    // Issue 26's goal is under 1 s; it is not met reliably yet (~1 s here, 1.15 s on a busy machine), so it is reported, not asserted.
    console.log(`# heardMs ${report.heardMs} (goal < 1000 ms)`);
    assert.ok(Math.abs(report.heardMs - analysed) <= 150, `heardMs ${report.heardMs} vs analyser ${Math.round(analysed)} ms`);
    // The built-in face is drawn: the mouth moves with the voice (the first sound may be a closed-mouth shape).
    assert.ok(report.mouthMs >= report.heardMs - 40 && report.mouthMs - report.heardMs < 300, `mouthMs ${report.mouthMs} with heardMs ${report.heardMs}`);
    assert.ok(report.lipSyncMs >= 0 && report.lipSyncMs <= 100, `lip sync p95 ${report.lipSyncMs} ms`);

    // The same figures reached the service: the verbose read, /metrics, then the transcription callback.
    const read = await eventually(() => world.api('GET', `/v2/conversations/${conversationId}?verbose=true`), (r) => (r.body as any)?.turn_latencies?.length === 1, 'the stored report');
    const stored = (read.body as any).turn_latencies[0];
    assert.deepEqual(stored, {
      inference_id: report.inference_id, input: 'text', turn_ended_at: report.turnEndedAt,
      heard_ms: report.heardMs, mouth_ms: report.mouthMs, lip_sync_ms: report.lipSyncMs,
    });
    const metrics = await (await fetch(`${world.serviceUrl}/metrics`)).text();
    assert.match(metrics, /^palkit_turn_heard_seconds_count\{input="text"\} 1$/m);
    // The report sits in its bucket: counted at 1 s when heard within a second, not counted there otherwise.
    assert.match(metrics, new RegExp(`^palkit_turn_heard_seconds_bucket\\{le="1",input="text"\\} ${report.heardMs <= 1000 ? 1 : 0}$`, 'm'));
    await page.locator('pal-controls [part="end"]').click();
    const ready = await eventually(
      async () => world.receiver.received.map((r) => r.body).find((b: any) => b.conversation_id === conversationId && b.event_type === 'application.transcription_ready') as any,
      (b) => b !== undefined, 'application.transcription_ready', 20_000,
    );
    assert.deepEqual(ready.properties.turn_latency.heard_ms, { count: 1, p50: report.heardMs, p95: report.heardMs });
  });
});
