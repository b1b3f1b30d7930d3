// Voice to voice, end to end (issue 26, item 3): the visitor's microphone plays spoken questions (espeak-ng,
// some with a pause to think mid-sentence), each once the PAL's answer to the one before has been heard to
// its end, as a visitor waits for the answer; the service hears them (voice activity,
// a transcription server on loopback answering after 150 ms in OpenAI's streaming format), and the local
// PAL without a model answers in its voice. Analysers in the page, run by the test, find the end of each
// question on the microphone and the PAL's first audible sample after it: the heard latency per turn,
// reported as p50/p95. A false cut-off — the PAL answering a half question — is counted from the turns
// the PAL took (each must be a whole question) and from the PAL's voice starting inside a question.
import assert from 'node:assert/strict';
import { reportFigure } from '../../helpers/figures.js';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../helpers/fake-speech.js';
import { createDeployment, createPal, customerPage, eventually, openPage, startWorld, type World } from '../../helpers/e2e-world.js';
import { fakeMicrophone } from '../../helpers/fake-microphone.js';
import { pageProbes } from '../../helpers/page-probes.js';
import { spokenQuestion, type Spoken } from '../../helpers/spoken-questions.js';

const QUESTIONS = [
  { parts: ['What time does the shop open on Sundays?'] },
  { parts: ['I would like to book a table for', 'four people tomorrow evening.'] },
  { parts: ['Can I bring my dog to the hotel?'] },
  { parts: ['How much does a single ticket cost?'] },
  { parts: ['Could you tell me um', 'how long the delivery takes?'] },
  { parts: ['Do you deliver to Scotland?'] },
  { parts: ['Please tell me about the refund policy.'] },
  { parts: ['My order number is', 'five five two and it has not arrived.'] },
  { parts: ['Is there parking near the entrance?'] },
  { parts: ['Where can I find the user manual?'] },
  { parts: ['What is the difference between the', 'basic and the premium plan?'] },
  { parts: ['Which payment methods do you accept?'] },
];
/** The visitor stops to think this long mid-sentence (people do for a second or more; 0.9 s is common). */
const THINKING_MS = 900;
const TRANSCRIPTION_MS = 150;

// In the page before anything else (after the test's microphone, helpers/fake-microphone.ts): an analyser on
// the microphone the element opens, one on the PAL's audio, and the caption on screen, each sampled every
// 10 ms on the page's clock; \`__ask\` plays a question into the microphone, \`__heard\` tells the test
// whether the PAL has finished speaking since a moment.
const instruments = `${pageProbes}
window.__v2v = { mic: [], pal: [], captions: [], events: [], micStartedAt: null };
window.addEventListener('pal-protocol-message', (e) => window.__v2v.events.push({ at: performance.now(), type: e.detail?.event_type, role: e.detail?.properties?.role, speech: e.detail?.properties?.speech }));
// On the prototype: WebKit loses a patch set on navigator.mediaDevices itself (helpers/fake-microphone.ts).
const realGetUserMedia = MediaDevices.prototype.getUserMedia;
MediaDevices.prototype.getUserMedia = async function (constraints) {
  const stream = await realGetUserMedia.call(this, constraints);
  const track = stream.getAudioTracks()[0];
  if (track && window.__v2v.micStartedAt === null) {
    window.__v2v.micStartedAt = performance.now();
    window.__probes.levels(new AudioContext(), new MediaStream([track.clone()]), { fftSize: 512, everyMs: 10 }, ({ at, peak }) => window.__v2v.mic.push({ at, peak }));
  }
  return stream;
};
window.__listen = () => {
  const stream = window.__probes.stageStream();
  if (!stream) return false;
  window.__probes.levels(new AudioContext(), stream, { fftSize: 256, everyMs: 10 }, ({ at, peak }) => {
    window.__v2v.pal.push({ at, peak });
    const caption = window.__probes.inside('pal-transcript[mode="captions"]', '.caption-text');
    const last = window.__v2v.captions.at(-1);
    const now = caption && !caption.closest('[hidden]') ? { role: caption.dataset.role, text: caption.textContent.trim() } : { role: '', text: '' };
    if (!last || last.text !== now.text || last.role !== now.role) window.__v2v.captions.push({ at: performance.now(), ...now });
  });
  return true;
};
/** Plays a question (a base64 WAV) into the microphone: when it starts, on the page's clock and as an epoch (the recogniser's). */
window.__ask = async (wav) => {
  const at = await window.__speak(wav);
  return { at, epoch: performance.timeOrigin + at };
};
/** Whether the PAL stopped speaking after \`since\` and its voice has been silent for \`quietMs\` (page clock). */
window.__heard = (since, quietMs, audible) => {
  const stopped = window.__v2v.events.findLast((e) => e.type === 'conversation.replica.stopped_speaking' && e.at > since);
  const last = window.__v2v.pal.at(-1);
  if (!stopped || !last) return false;
  const loud = window.__v2v.pal.findLast((s) => s.peak >= audible);
  return last.at - Math.max(stopped.at, loud?.at ?? 0) >= quietMs;
};
`;

/** The PAL's voice: about −50 dBFS (its voice is far louder, silence far quieter). */
const PAL_AUDIBLE = 0.003;
/** The visitor's voice on the microphone: espeak-ng peaks near full scale; −40 dBFS is well below its quietest word. */
const MIC_AUDIBLE = 0.01;
/** Questions are at least this far apart on the microphone (the PAL answers in between); a thinking pause is far shorter. */
const QUESTION_GAP_MS = 1300;
/** The next question waits for the answer to the last to be heard to its end: its voice silent this long. */
const QUIET_AFTER_ANSWER_MS = 300;

interface Sample {
  at: number;
  peak: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('voice to voice: heard latency over spoken turns, and no visitor cut off', { timeout: 300_000 }, () => {
  let spoken: Spoken[];
  let stt: FakeSpeechServices;
  let world: World;
  let page: Page;

  before(async () => {
    stt = await startFakeSpeechServices({ transcript: '', delayMs: TRANSCRIPTION_MS });
    // espeak-ng speaks the questions while the service and Chromium start.
    const speaking = Promise.all(QUESTIONS.map((q) => spokenQuestion(q, THINKING_MS)));
    speaking.catch(() => undefined); // awaited below, once the world is up
    world = await startWorld({
      PALKIT_PAL_WORDS_PER_MINUTE: '400',
      PALKIT_STT_BASE_URL: `${stt.url}/v1`,
      PALKIT_STT_API_KEY: 'sk-test',
      PALKIT_STT_MODEL: 'gpt-4o-mini-transcribe',
    });
    spoken = await speaking;
    const palId = await createPal(world, {
      pal_name: 'Voice to voice PAL',
      custom_greeting: 'Hi.',
      default_face_id: 'rpalkitada',
      disclosure_type: 'off',
    });
    const id = await createDeployment(world, {
      pal_id: palId,
      channel: 'widget',
      allowed_origins: [world.siteOrigin],
      customization: { show_haircheck: false },
    });
    page = await openPage(world);
    await page.context().addInitScript(fakeMicrophone);
    await page.context().addInitScript(instruments);
    await page.goto(world.sitePage(`/v2v-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
    await page.locator('pal-widget [part="launcher"]').click();
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-controls [part="end"]').waitFor();
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
    await stt?.close();
  });

  it(`answers ${QUESTIONS.length} spoken questions, each when it is over: heard latency p50/p95, false cut-offs 0`, async () => {
    const v2v = () =>
      page.evaluate(
        () =>
          (window as any).__v2v as {
            mic: Sample[];
            pal: Sample[];
            captions: Array<{ at: number; role: string; text: string }>;
            events: Array<{ at: number; type: string; role?: string; speech?: string }>;
            micStartedAt: number | null;
          },
      );
    const started = {
      micStartedAt: await eventually(
        () => page.evaluate(() => (window as any).__v2v.micStartedAt as number | null),
        (at) => at !== null,
        'the microphone opened',
        20_000,
      ),
    };
    // The fake recogniser answers what had been said when the audio reached it: what the question being
    // asked then had said by that moment.
    const asked: Array<{ at: number; epoch: number; question: Spoken }> = [];
    stt.recognise = () => {
      const now = Date.now();
      const last = asked.findLast((a) => a.epoch <= now);
      return last ? last.question.wordsBy(now - last.epoch) : '';
    };
    // The visitor asks each question once the PAL's last words (the greeting, then each answer) have been
    // heard to their end, and never sooner than QUESTION_GAP_MS after their last question ended. Polled
    // with a small answer: the fake recogniser shares this process, and reading all the samples every 50 ms
    // would keep its timers (and so every transcription) waiting.
    const heardSince = (since: number, what: string) =>
      eventually(
        () =>
          page.evaluate(([s, quiet, audible, gap]) => (window as any).__heard(s, quiet, audible) && performance.now() >= s + gap, [
            since,
            QUIET_AFTER_ANSWER_MS,
            PAL_AUDIBLE,
            since > 0 ? QUESTION_GAP_MS + 200 : 0,
          ] as const),
        (done) => done === true,
        what,
        30_000,
      );
    let since = 0;
    for (const [i, question] of spoken.entries()) {
      await heardSince(since, i === 0 ? 'the greeting heard to its end' : `the answer to "${spoken[i - 1]!.text}" heard to its end`);
      const at: { at: number; epoch: number } = await page.evaluate(
        (wav) => (window as any).__ask(wav),
        Buffer.from(question.wav).toString('base64'),
      );
      asked.push({ ...at, question });
      since = at.at + question.durationMs;
    }
    await heardSince(since, `the answer to "${spoken.at(-1)!.text}" heard to its end`);
    const { mic, pal, captions, events } = await v2v();
    const messages: any[] = await page.evaluate(() => (window as any).__pal.messages);
    // PALKIT_V2V_DUMP=<file> keeps what was measured, to look into a failure.
    if (process.env.PALKIT_V2V_DUMP)
      writeFileSync(
        process.env.PALKIT_V2V_DUMP,
        JSON.stringify({
          asked: asked.map((a) => ({ at: a.at, text: a.question.text, durationMs: a.question.durationMs })),
          started,
          mic,
          pal,
          captions,
          messages,
          events,
          transcriptions: stt.transcriptions,
        }),
      );

    // The questions as the microphone played them: loud stretches, split where the silence is long.
    const questions: Array<{ start: number; end: number }> = [];
    for (const s of mic) {
      if (s.peak < MIC_AUDIBLE) continue;
      const last = questions.at(-1);
      if (last && s.at - last.end < QUESTION_GAP_MS) last.end = s.at;
      else questions.push({ start: s.at, end: s.at });
    }
    assert.equal(
      questions.length,
      QUESTIONS.length,
      `the microphone played ${questions.length} questions: ${JSON.stringify(questions.map((q) => Math.round(q.end - q.start)))}`,
    );

    // The PAL's replies start where its audio becomes audible after a silence.
    const onsets: number[] = [];
    for (let i = 1; i < pal.length; i++)
      if (pal[i]!.peak >= PAL_AUDIBLE && pal.slice(Math.max(0, i - 15), i).every((s) => s.peak < PAL_AUDIBLE)) onsets.push(pal[i]!.at);

    const heard: number[] = [];
    const cutOffs: string[] = [];
    for (const [i, q] of questions.entries()) {
      const next = questions[i + 1]?.start ?? Infinity;
      // Speaking over the visitor mid-question (after its first 300 ms: a previous reply may still be fading) is cutting them off.
      const inside = onsets.filter((at) => at > q.start + 300 && at < q.end);
      if (inside.length) cutOffs.push(`the PAL spoke ${Math.round(inside[0]! - q.start)} ms into "${spoken[i]!.text}"`);
      const reply = onsets.find((at) => at >= q.end && at < next);
      assert.ok(reply !== undefined, `the PAL answered "${spoken[i]!.text}"`);
      heard.push(reply - q.end);
    }
    // Every turn the PAL took is a whole question, in order.
    const turns = messages
      .filter((m) => m.event_type === 'conversation.utterance' && m.properties.role === 'user')
      .map((m) => m.properties.speech as string);
    for (const turn of turns) if (!spoken.some((q) => q.text === turn)) cutOffs.push(`the PAL took "${turn}" as a turn`);

    const p50 = percentile(heard, 50);
    const p95 = percentile(heard, 95);
    const paused = spoken.filter((q) => q.paused).length;
    console.log(`heard per turn (ms): ${heard.map((h) => Math.round(h)).join(', ')}`);
    console.log(
      `# voice-to-voice heard p50 ${Math.round(p50)} ms, p95 ${Math.round(p95)} ms over ${heard.length} spoken turns (goals 700 / 1000 ms); false cut-offs ${cutOffs.length} in ${paused} questions with a ${THINKING_MS} ms pause mid-sentence; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    );
    reportFigure({ name: 'chromium, spoken questions: heard p50', value: p50, unit: 'ms', better: 'lower' });
    reportFigure({ name: 'chromium, spoken questions: heard p95', value: p95, unit: 'ms', better: 'lower' });
    reportFigure({
      name: 'chromium, spoken questions: false cut-offs',
      value: cutOffs.length,
      unit: '',
      better: 'lower',
      bar: '0',
      met: cutOffs.length === 0,
    });
    assert.deepEqual(cutOffs, [], 'no visitor was cut off');
    assert.deepEqual(
      turns,
      spoken.map((q) => q.text),
      'one turn per question, each whole',
    );

    // The visitor's words were on screen while they spoke: during each thinking pause the caption showed
    // the first part of the question (transcribed while the visitor still had more to say).
    for (const [i, q] of spoken.entries()) {
      if (!q.paused) continue;
      const firstPart = QUESTIONS[i]!.parts[0]!;
      const shown = captions.find(
        (c) =>
          c.role === 'user' &&
          c.at > questions[i]!.start &&
          c.at < questions[i]!.end &&
          c.text.startsWith(firstPart.split(' ').slice(0, 3).join(' ')),
      );
      assert.ok(shown, `the caption showed "${firstPart}…" while the visitor paused mid-question`);
    }
    assert.ok(
      messages.some(
        (m) => m.event_type === 'conversation.utterance.streaming' && m.properties.role === 'user' && m.properties.final === false,
      ),
      'user partials reached the page',
    );

    // The end of turn follows the words, not a fixed pause: for a question spoken in one go, the service's
    // end-of-turn mark reaches the page with the last of the visitor's words (median within 150 ms; the old
    // end came 600 ms of silence after the speech, with no words before it). The heard p50/p95 goals
    // (700 / 1,000 ms) are reported above, not asserted: on a machine shared with other test runs (load ~20
    // on 2 cores) the whole pipeline stalls for hundreds of ms at a time: p50 503 ms at load 6.5, 730–980 ms at 14–24.
    const followed: number[] = [];
    for (const [i, q] of questions.entries()) {
      if (spoken[i]!.paused) continue;
      const during = events.filter((e) => e.at > q.start && e.at < (questions[i + 1]?.start ?? Infinity));
      const end = during.find((e) => e.type === 'conversation.user.stopped_speaking');
      const words = during
        .filter((e) => e.type === 'conversation.utterance.streaming' && e.role === 'user' && end && e.at <= end.at)
        .at(-1);
      followed.push(end && words ? end.at - words.at : Infinity);
    }
    console.log(`end of turn after the last words (ms): ${followed.map((f) => Math.round(f)).join(', ')}`);
    reportFigure({
      name: 'chromium, spoken questions: end of turn after the words, p50',
      value: percentile(followed, 50),
      unit: 'ms',
      better: 'lower',
      bar: '< 150',
      met: percentile(followed, 50) < 150,
    });
    assert.ok(
      percentile(followed, 50) < 150,
      `the turn ends with its words (median ${Math.round(percentile(followed, 50))} ms after them)`,
    );
  });
});
