// The voice walk in every engine (Chromium, Firefox ESR, WebKit; PALKIT_BROWSERS picks some): on a customer
// page with the script tag, the PAL's voice is heard through a Web Audio analyser on the element's own audio
// with captions ahead of it, answers a typed question within a second and stops when the visitor speaks over
// it. It measures, so it runs alone; the walks from the preview to the after-call screen, which do not, are
// visitor-walks.test.ts. Real input events only, so media rules needing a user gesture (WebKit here, as
// Safari) apply. Tests listed in test/known-engine-gaps.json for an engine are skipped there, with their reason.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe } from 'node:test';
import { createDeployment, createPal, customerPage, eventually, type World } from '../../helpers/e2e-world.js';
import { voiceListener } from '../../helpers/fake-microphone.js';
import { assertGreetingHeard, voiceReadings, type Evaluate } from '../../helpers/voice-readings.js';
import { DESKTOP, openBrowser, selectedEngines, type VisitorBrowser, type VisitorPage } from '../../helpers/visitor.js';
import { HEARD, itIn, startWalkWorld, walkPage, type WalkWorld } from '../../helpers/visitor-walks.js';

const FILE = 'test/realtime/e2e/visitor-engines.test.ts';
// Ten words (3.4 s), not 22: the voice walk waits for the greeting to end before its question (~4 s sooner).
const VOICE_GREETING = 'Hello, I am the voice PAL: hear every word with captions.';
const QUESTION = 'Please repeat this long sentence back to me slowly, word by word, so that there is plenty of time to talk over you.';
const LOUD = 0.01;

const engines = selectedEngines(process.env.PALKIT_BROWSERS);

describe('the voice walk in every engine', { timeout: 900_000 }, () => {
  let walkWorld: WalkWorld;
  let world: World;
  let speech: WalkWorld['speech'];

  before(async () => {
    walkWorld = await startWalkWorld({ PALKIT_PAL_WORDS_PER_MINUTE: '175' });
    ({ world, speech } = walkWorld);
  });
  after(async () => {
    await walkWorld?.close();
  });

  for (const engine of engines) {
    describe(engine, () => {
      let browser: VisitorBrowser;
      const pages: VisitorPage[] = [];

      before(async () => {
        browser = await openBrowser(engine, [DESKTOP]);
      });
      after(async () => {
        for (const page of pages) await page.close().catch(() => undefined);
        await browser?.close();
      });

      itIn(
        FILE,
        engine,
        'voice: the greeting is heard through an analyser with captions ahead, a typed question is answered aloud within a second, speaking over the PAL stops it',
        async () => {
          const palId = await createPal(world, {
            pal_name: 'Voice PAL',
            custom_greeting: VOICE_GREETING,
            default_face_id: walkWorld.faceId,
            disclosure_type: 'off',
          });
          const id = await createDeployment(world, {
            pal_id: palId,
            channel: 'widget',
            allowed_origins: [world.siteOrigin],
            customization: { show_haircheck: false },
          });
          const p = await walkPage(browser, DESKTOP, pages);
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
