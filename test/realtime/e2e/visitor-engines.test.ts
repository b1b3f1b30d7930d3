// The visitor walks in every engine (Chromium, Firefox ESR, WebKit; PALKIT_BROWSERS picks some), at desktop
// size and phone size (390 px, taps): a customer page on another origin with the script tag walks widget,
// embed and the hosted landing page through preview → password → device check → call (greeting, a typed
// line and its echo) → end → after-call screen; and the PAL's voice is heard through a Web Audio analyser on
// the element's own audio with captions ahead of it, answers a typed question at once and stops when the
// visitor speaks over it (Chromium's own voice file, voice.test.ts, walked the same and is gone).
// Real input events only, so media rules needing a user gesture (WebKit here, as Safari) apply.
// Tests listed in test/known-engine-gaps.json for an engine are skipped there, with their reason.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../helpers/fake-speech.js';
import { createDeployment, createPal, customerPage, eventually, startWorld, trainFace, type World } from '../../helpers/e2e-world.js';
import { fakeMicrophone, voiceListener } from '../../helpers/fake-microphone.js';
import { assertGreetingHeard, voiceReadings, type Evaluate } from '../../helpers/voice-readings.js';
import {
  DESKTOP,
  PHONE,
  openBrowser,
  selectedEngines,
  type Engine,
  type Size,
  type VisitorBrowser,
  type VisitorPage,
} from '../../helpers/visitor.js';

const PASSWORD = 'open sesame';
// The walk waits for its greeting and its echo to be spoken to the end (at the 175 words a minute the voice
// walk needs): three words each, not seven, end each of the 18 walks ~2.7 s sooner (5.6-7.1 s a walk before).
const GREETING = 'Welcome, every engine.';
const AFTER_CALL = { title: 'Thanks for stopping by', description: 'We will follow up by email.' };
const TYPED = 'Say this back?';
// Ten words (3.4 s), not 22: the voice walk waits for the greeting to end before its question (~4 s sooner).
const VOICE_GREETING = 'Hello, I am the voice PAL: hear every word with captions.';
const QUESTION = 'Please repeat this long sentence back to me slowly, word by word, so that there is plenty of time to talk over you.';
const HEARD = 'Sorry to interrupt you.';
const LOUD = 0.01;
const WALKS_AT_ONCE = 3;

const gaps: Array<{ suite: string; engine: string; file: string; test: string; reason: string }> = JSON.parse(
  readFileSync(new URL('../../known-engine-gaps.json', import.meta.url), 'utf8'),
).gaps;
/** With PALKIT_VISITOR_SHOTS=<folder>, a failing walk leaves a screenshot of its page there. */
async function shotOnFailure<T>(p: VisitorPage, name: string, walk: () => Promise<T>): Promise<T> {
  try {
    return await walk();
  } catch (error) {
    const folder = process.env.PALKIT_VISITOR_SHOTS;
    if (folder) {
      mkdirSync(folder, { recursive: true });
      await p
        .screenshot()
        .then((png) => writeFileSync(`${folder}/${p.engine}-${name.replace(/[^\w]+/g, '-').slice(0, 60)}.png`, png))
        .catch(() => undefined);
    }
    throw error;
  }
}

/** `it`, or a skip with the known gap's reason when this engine has one for this test. */
function itIn(engine: Engine, name: string, fn: () => Promise<void>): void {
  const gap = gaps.find(
    (g) => g.suite === 'e2e' && g.engine === engine && g.file === 'test/realtime/e2e/visitor-engines.test.ts' && g.test === name,
  );
  if (gap) return void it(name, { skip: `known ${engine} gap: ${gap.reason}` }, fn);
  it(name, async () => {
    try {
      await fn();
    } catch (error) {
      // WebKitWebDriver sometimes never answers a command (a few walks in twenty, often the first of a fresh
      // MiniBrowser): the command fails after 45 s and the walk runs again once, in a new MiniBrowser (every
      // page has its own). Firefox gets no second walk: its page stopped answering puppeteer when the PAL's
      // player read the output clock every 5 ms (a Firefox deadlock, see pal-audio.ts), and a page that
      // stops answering now is a defect to see, not to walk past.
      if (engine !== 'webkit' || !/aborted due to timeout/.test(String((error as Error).message))) throw error;
      console.error(
        `[${engine}] ${name}: the browser stopped answering (${String((error as Error).message).slice(0, 80)}); walking again in a fresh one`,
      );
      await fn();
    }
  });
}

// What the element tells the page, recorded from the start where the engine allows (WebKit: after load).
const recorder = `
if (!window.__pal) {
  window.__pal = { errors: [], events: [], messages: [] };
  for (const type of ['pal-conversation-started', 'pal-conversation-ended', 'pal-error', 'pal-protocol-message']) {
    window.addEventListener(type, (event) => {
      const detail = event.detail ?? {};
      if (type === 'pal-error') window.__pal.errors.push(detail.code);
      else if (type === 'pal-protocol-message') window.__pal.messages.push(JSON.parse(JSON.stringify(detail)));
      else window.__pal.events.push({ type, detail: JSON.parse(JSON.stringify(detail)) });
    });
  }
}`;

// Chromium's speech recognition needs Google's service, which a test machine cannot reach: it fails at once
// with a network error, and the element then tells the visitor the microphone is unavailable. Where the
// engine has one, a stand-in recognition that hears nothing (the microphone is quiet) takes its place.
const silentRecognition = `
if ((window.SpeechRecognition || window.webkitSpeechRecognition) && !window.__silentRecognition) {
  window.__silentRecognition = true;
  class SilentRecognition extends EventTarget {
    continuous = false; interimResults = false; lang = ''; running = false;
    start() { if (this.running) throw new DOMException('already started', 'InvalidStateError'); this.running = true; this.dispatchEvent(new Event('start')); }
    stop() { this.end(); }
    abort() { this.end(); }
    end() { if (this.running) { this.running = false; this.dispatchEvent(new Event('end')); } }
  }
  window.SpeechRecognition = SilentRecognition;
  window.webkitSpeechRecognition = SilentRecognition;
}`;

const engines = selectedEngines(process.env.PALKIT_BROWSERS);

describe('visitor walks in every engine', { timeout: 900_000 }, () => {
  let world: World;
  let speech: FakeSpeechServices;
  let faceId: string;
  let walkPal: string;

  before(async () => {
    speech = await startFakeSpeechServices({ transcript: HEARD });
    // No Chromium of the world's: each engine's browser is opened below (helpers/visitor.ts).
    world = await startWorld(
      { PALKIT_PAL_WORDS_PER_MINUTE: '175', PALKIT_STT_BASE_URL: `${speech.url}/v1`, PALKIT_STT_API_KEY: 'sk-test' },
      { chromium: false },
    );
    faceId = await trainFace(world);
    walkPal = await createPal(world, { pal_name: 'Walk PAL', default_face_id: faceId, custom_greeting: GREETING, disclosure_type: 'off' });
  });
  after(async () => {
    await world?.close();
    await speech?.close();
  });

  for (const engine of engines) {
    describe(engine, () => {
      let browser: VisitorBrowser;
      const pages: VisitorPage[] = [];

      before(async () => {
        browser = await openBrowser(engine, [DESKTOP, PHONE]);
      });
      after(async () => {
        for (const page of pages) await page.close().catch(() => undefined);
        await browser?.close();
      });

      async function page(size: Size): Promise<VisitorPage> {
        const p = await browser.newPage(size);
        pages.push(p);
        await p.addInitScript(recorder);
        await p.addInitScript(fakeMicrophone);
        await p.addInitScript(silentRecognition);
        return p;
      }

      const guarded = (channel: 'widget' | 'embed' | 'landing-page', size: Size) =>
        createDeployment(world, {
          pal_id: walkPal,
          channel,
          name: `${channel} ${engine} ${size.name}`,
          password: PASSWORD,
          limits: { participant_left_timeout: 0 },
          allowed_origins: [world.siteOrigin],
          customization: { after_call: AFTER_CALL, preview: { title: `Talk to the ${channel}` } },
        });

      const elementState = (p: VisitorPage, tag: string) =>
        p.evaluate((t) => (document.querySelector(t) as unknown as { state: string } | null)?.state ?? null, tag);
      const sessionNotice = (p: VisitorPage, tag: string) =>
        p.evaluate(
          (t) => (document.querySelector(t) as unknown as { session: { notice: string | null } | null } | null)?.session?.notice ?? null,
          tag,
        );
      const palMessages = (p: VisitorPage) => p.evaluate(() => (window as any).__pal.messages as any[]);

      /** From the preview to the after-call screen, as the visitor clicks (or taps) through it. */
      async function walkFromPreview(p: VisitorPage, tag: string, previewTitle: string): Promise<void> {
        await shotOnFailure(p, `${p.size.name} ${tag}`, () => walk(p, tag, previewTitle));
      }

      async function walk(p: VisitorPage, tag: string, previewTitle: string): Promise<void> {
        await p.waitFor({ css: 'pal-preview h2', hasText: previewTitle });
        await p.click('pal-preview [part="start"]');
        await p.fill('pal-gate input[name="password"]', PASSWORD);
        await p.click('pal-gate button[type="submit"]');
        // The device check shows the (fake) camera, then the visitor joins.
        await p.waitFor('pal-haircheck [part="join"]', { timeout: 20_000 });
        await p.click('pal-haircheck [part="join"]');
        await p.waitFor('pal-conversation pal-controls [part="end"]', { timeout: 20_000 });
        assert.equal(await elementState(p, tag), 'connected');
        await eventually(
          () => palMessages(p),
          (all) => all.some((m) => m.properties?.speech === GREETING),
          'the greeting',
          20_000,
        );
        // The microphone chosen in the device check is the call's (no "microphone isn't available", no text mode).
        assert.equal(await sessionNotice(p, tag), null);

        // A typed line in the chat gets the echo PAL's reply.
        await p.click('pal-controls button[aria-label="Chat"]');
        await p.fill('pal-transcript[mode="panel"] form[part="chat"] input', TYPED);
        await p.press('pal-transcript[mode="panel"] form[part="chat"] input', 'Enter');
        await p.waitFor({ css: 'pal-transcript[mode="panel"] li.user .bubble', hasText: TYPED });
        await p.waitFor({ css: 'pal-transcript[mode="panel"] li.replica .bubble', hasText: TYPED }, { timeout: 15_000 });

        const started = (await p.evaluate(() => (window as any).__pal.events as any[])).find((e) => e.type === 'pal-conversation-started');
        await p.click('pal-controls [part="end"]');
        await p.waitFor({ css: 'pal-ended h2', hasText: AFTER_CALL.title });
        assert.equal(await p.innerText('pal-ended p'), AFTER_CALL.description);
        assert.equal(await elementState(p, tag), 'ended');
        assert.deepEqual(await p.evaluate(() => (window as any).__pal.errors), []);
        if (started) {
          const id = started.detail.conversationId as string;
          await eventually(
            () => world.api('GET', `/v2/conversations/${id}`),
            (r) => r.body.status === 'ended',
            'the conversation to end',
          );
        }
      }

      const walkIt = (name: string, fn: () => Promise<void>) => itIn(engine, name, fn);
      // The six walks assert no timing, each on a page and a deployment of its own: three at a time (an
      // engine's walks took 28-35 s one after another). The voice walk below measures and runs alone, after.
      describe('walks', { concurrency: WALKS_AT_ONCE }, () => {
        for (const size of [DESKTOP, PHONE]) {
          walkIt(
            `${size.name}: pal-widget: launcher → preview → password → device check → call → chat → end → after-call screen`,
            async () => {
              const id = await guarded('widget', size);
              const p = await page(size);
              await p.goto(
                world.sitePage(
                  `/walk-widget-${engine}-${size.width}-${id}`,
                  customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`),
                ),
              );
              await p.click('pal-widget [part="launcher"]');
              await p.waitFor('pal-widget dialog[part="panel"]');
              await walkFromPreview(p, 'pal-widget', 'Talk to the widget');
              await p.close();
            },
          );

          walkIt(`${size.name}: pal-embed: preview → password → device check → call → chat → end → after-call screen`, async () => {
            const id = await guarded('embed', size);
            const p = await page(size);
            const box = size.touch ? 'width:100%;height:640px' : 'width:960px;height:600px';
            await p.goto(
              world.sitePage(
                `/walk-embed-${engine}-${size.width}-${id}`,
                customerPage(world.serviceUrl, `<div style="${box}"><pal-embed deployment-id="${id}"></pal-embed></div>`),
              ),
            );
            await walkFromPreview(p, 'pal-embed', 'Talk to the embed');
            await p.close();
          });

          walkIt(
            `${size.name}: landing page at /d/{id}: preview → password → device check → call → chat → end → after-call screen`,
            async () => {
              const id = await guarded('landing-page', size);
              const p = await page(size);
              await p.goto(`${world.serviceUrl}/d/${id}`);
              await walkFromPreview(p, 'pal-landing', 'Talk to the landing-page');
              await p.close();
            },
          );
        }
      });

      walkIt(
        'voice: the greeting is heard through an analyser with captions ahead, a typed question is answered aloud within a second, speaking over the PAL stops it',
        async () => {
          const palId = await createPal(world, {
            pal_name: 'Voice PAL',
            custom_greeting: VOICE_GREETING,
            default_face_id: faceId,
            disclosure_type: 'off',
          });
          const id = await createDeployment(world, {
            pal_id: palId,
            channel: 'widget',
            allowed_origins: [world.siteOrigin],
            customization: { show_haircheck: false },
          });
          const p = await page(DESKTOP);
          await p.addInitScript(voiceListener);
          await p.goto(
            world.sitePage(
              `/walk-voice-${engine}-${id}`,
              customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`),
            ),
          );
          await p.click('pal-widget [part="launcher"]');
          await p.click('pal-preview [part="start"]');
          await p.waitFor('pal-controls [part="end"]', { timeout: 20_000 });
          await eventually(
            () => p.evaluate(() => (window as any).__listen()),
            (ok) => ok === true,
            "the PAL's audio element with a MediaStream",
          );
          await eventually(
            () => p.evaluate(() => (window as any).__contexts()),
            (states) => states.every((s: string) => s === 'running'),
            "the test's own audio contexts to start on the visitor's click",
          );

          const evaluate: Evaluate = (fn) => p.evaluate(fn);
          const readings = voiceReadings(evaluate);
          const { messages, levels, utteranceAt } = readings;

          // The greeting: a live track, playing, audible before the utterance completes, captions ahead of it
          // by more than a second (word by word, not at the end).
          assert.ok(
            (await p.evaluate(() => (window as any).__pal.events as any[])).some((e) => e.type === 'pal-conversation-started'),
            'pal-conversation-started',
          );
          const { complete, captionedAt } = await assertGreetingHeard(evaluate, readings, VOICE_GREETING, LOUD);
          assert.ok(complete - captionedAt > 1000, `captions led the complete utterance by ${Math.round(complete - captionedAt)} ms`);

          // A typed question: its answer is heard within a second.
          await eventually(
            messages,
            (all) => all.some((x) => x.m.event_type === 'conversation.replica.stopped_speaking'),
            'the end of the greeting',
            30_000,
          );
          await eventually(levels, (all) => all.slice(-10).every((s) => s.rms < LOUD / 2), 'silence after the greeting');
          const sentAt: number = await p.evaluate((text) => {
            (document.querySelector('pal-widget') as any).sendChat(text);
            return performance.now();
          }, QUESTION);
          const first = await eventually(levels, (all) => all.some((s) => s.at > sentAt && s.rms > LOUD), "the answer's first audio");
          const answerStart = first.find((s) => s.at > sentAt && s.rms > LOUD)!.at;
          const latency = answerStart - sentAt;
          assert.ok(latency < 1000, `first spoken words after ${Math.round(latency)} ms`);

          // The visitor speaks over the answer: the PAL's audio stops, and what was heard is answered.
          const spoken = execFileSync('espeak-ng', ['--stdout', '-s', '170', HEARD]).toString('base64');
          // Once the answer has been playing for 400 ms (not a fixed 1.2 s pause): it lasts ~8 s at 175 words a minute.
          await eventually(levels, (all) => all.some((s) => s.at >= answerStart + 400), 'the answer 400 ms on');
          assert.ok(
            (await levels()).slice(-5).some((s) => s.rms > LOUD),
            'the PAL is speaking when the visitor starts',
          );
          const before = speech.transcriptions.length;
          await p.evaluate((b64) => (window as any).__speak(b64), spoken);
          const all = await eventually(
            messages,
            (list) => list.some((x) => x.m.event_type === 'conversation.user.started_speaking'),
            'the service hearing the visitor',
            10_000,
          );
          const heardAt = all.find((x) => x.m.event_type === 'conversation.user.started_speaking')!.at;
          await eventually(
            messages,
            (list) => list.some((x) => x.m.event_type === 'conversation.replica_interrupted'),
            'the PAL interrupted',
          );
          // The levels up to 400 ms after the service heard the visitor (not a fixed 400 ms pause from here).
          await eventually(levels, (list) => list.some((s) => s.at >= heardAt + 400), "the PAL's audio 400 ms after the visitor was heard");
          const quiet = (await levels()).filter((s) => s.at > heardAt + 300 && s.at < heardAt + 400);
          assert.ok(
            quiet.length > 0 && quiet.every((s) => s.rms < LOUD / 2),
            `the PAL's audio stopped within 300 ms (${JSON.stringify(quiet.map((s) => s.rms.toFixed(4)))})`,
          );
          await utteranceAt(HEARD).catch(async (error) => {
            const seen = (await messages())
              .map((x) => `${Math.round(x.at)} ${x.m.event_type} ${x.m.properties?.role ?? ''} ${x.m.properties?.speech ?? ''}`.trim())
              .filter((l) => !l.includes('streaming'));
            throw new Error(
              `${(error as Error).message.slice(0, 80)}…; messages: ${seen.join(' | ')}; transcriptions: ${JSON.stringify(speech.transcriptions.slice(before))}`,
            );
          });
          assert.ok(
            speech.transcriptions.length > before && speech.transcriptions.at(-1)!.audioBytes > 16000,
            "the turn's audio reached the recogniser as a WAV file",
          );
          await p.close();
        },
      );
    });
  }
});
