// End to end, in Chromium against the service process, as a visitor hears it: the PAL's voice is a live
// MediaStream audio track played inside the element, measured with a Web Audio analyser (not assumed);
// captions show the greeting word by word before the whole utterance has arrived; a typed question's
// first spoken words arrive within a second; and speaking over the PAL (real speech played into the page's
// microphone) stops its audio at once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../helpers/fake-speech.js';
import {
  createDeployment,
  createPal,
  customerPage,
  eventually,
  openPage,
  palEvents,
  startWorld,
  trainFace,
  type World,
} from '../../helpers/e2e-world.js';
import { fakeMicrophone, voiceListener } from '../../helpers/fake-microphone.js';
import { assertGreetingHeard, voiceReadings, type Evaluate } from '../../helpers/voice-readings.js';

const GREETING = 'Hello, I am the voice test PAL, and you can hear every word of this greeting while the captions follow along.';
const QUESTION = 'Please repeat this long sentence back to me slowly, word by word, so that there is plenty of time to talk over you.';
const HEARD = 'Sorry to interrupt you.';

const LOUD = 0.01;

describe('the PAL is heard, and hears', { timeout: 120_000 }, () => {
  let world: World;
  let speech: FakeSpeechServices;
  let page: Page;

  before(async () => {
    speech = await startFakeSpeechServices({ transcript: HEARD });
    world = await startWorld({
      PALKIT_PAL_WORDS_PER_MINUTE: '175',
      PALKIT_STT_BASE_URL: `${speech.url}/v1`,
      PALKIT_STT_API_KEY: 'sk-test',
    });
    const palId = await createPal(world, { pal_name: 'Voice PAL', custom_greeting: GREETING, default_face_id: await trainFace(world) });
    const id = await createDeployment(world, {
      pal_id: palId,
      channel: 'widget',
      allowed_origins: [world.siteOrigin],
      customization: { show_haircheck: false },
    });
    page = await openPage(world);
    // In the page before anything else: a microphone the test speaks into, and an analyser on the PAL's voice.
    await page.context().addInitScript(fakeMicrophone);
    await page.context().addInitScript(voiceListener);
    await page.goto(world.sitePage(`/voice-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
    await page.locator('pal-widget [part="launcher"]').click();
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-controls [part="end"]').waitFor();
    assert.ok((await palEvents(page)).some((e) => e.type === 'pal-conversation-started'));
    await eventually(
      () => page.evaluate(() => (window as any).__listen()),
      (ok) => ok === true,
      "the PAL's audio element with a MediaStream",
    );
  });
  after(async () => {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await world?.close();
    await speech?.close();
  });

  const evaluate: Evaluate = (fn) => page.evaluate(fn);
  const readings = voiceReadings(evaluate);
  const { messages, levels, utteranceAt } = readings;

  it('plays the greeting as a live MediaStream audio track that an analyser hears, with captions ahead of the whole utterance', async () => {
    const { complete, captionedAt } = await assertGreetingHeard(evaluate, readings, GREETING, LOUD);
    assert.ok(complete - captionedAt > 1000, `captions led the complete utterance by ${Math.round(complete - captionedAt)} ms`);
  });

  it('speaks the first words of an answer to a typed question within a second', async () => {
    await eventually(
      messages,
      (all) => all.some((x) => x.m.event_type === 'conversation.replica.stopped_speaking'),
      'the end of the greeting',
      30_000,
    );
    await eventually(levels, (all) => all.slice(-10).every((s) => s.rms < LOUD / 2), 'silence after the greeting');
    const sentAt: number = await page.evaluate((text) => {
      (document.querySelector('pal-widget') as any).sendChat(text);
      return performance.now();
    }, QUESTION);
    const first = await eventually(levels, (all) => all.some((s) => s.at > sentAt && s.rms > LOUD), "the answer's first audio");
    const latency = first.find((s) => s.at > sentAt && s.rms > LOUD)!.at - sentAt;
    assert.ok(latency < 1000, `first spoken words after ${Math.round(latency)} ms`);
  });

  it('stops talking at once when the visitor speaks over it, and answers what it heard', async () => {
    // The PAL is answering the long question; the visitor says something.
    const spoken = execFileSync('espeak-ng', ['--stdout', '-s', '170', HEARD]).toString('base64');
    await new Promise((r) => setTimeout(r, 1200));
    assert.ok(
      (await levels()).slice(-5).some((s) => s.rms > LOUD),
      'the PAL is speaking when the visitor starts',
    );
    await page.evaluate((b64) => (window as any).__speak(b64), spoken);
    const all = await eventually(
      messages,
      (list) => list.some((x) => x.m.event_type === 'conversation.user.started_speaking'),
      'the service hearing the visitor',
      10_000,
    );
    const heardAt = all.find((x) => x.m.event_type === 'conversation.user.started_speaking')!.at;
    await eventually(messages, (list) => list.some((x) => x.m.event_type === 'conversation.replica_interrupted'), 'the PAL interrupted');
    await new Promise((r) => setTimeout(r, 400));
    const after = (await levels()).filter((s) => s.at > heardAt + 300 && s.at < heardAt + 400);
    // The visitor's own voice is not in the PAL's track: silence means the PAL stopped.
    assert.ok(
      after.length > 0 && after.every((s) => s.rms < LOUD / 2),
      `the PAL's audio stopped within 300 ms (${JSON.stringify(after.map((s) => s.rms.toFixed(4)))})`,
    );
    // What the visitor said was transcribed (by the fake recogniser) and answered (the echo PAL repeats it).
    await utteranceAt(HEARD);
    assert.ok(
      speech.transcriptions.length >= 1 && speech.transcriptions[0]!.audioBytes > 16000,
      "the turn's audio reached the recogniser as a WAV file",
    );
  });
});
