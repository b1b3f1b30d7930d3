// palkit's Daily runner, as a Daily visitor meets it, in real time: the real runner process and its
// Chromium page, with daily-js swapped for test/helpers/daily-runner-visitor-standin.ts (Daily's servers
// are unreachable here), whose visitor Grace *speaks* her question into her Daily audio track. The PAL has
// to hear it through the page's bridge (the service's voice activity detection and recogniser), answer
// it, stop when she talks over the answer, and say so to the Daily room in app-messages; and the face the page published has to move its mouth
// while the PAL's published voice is audible and rest while it is silent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DAILY_KEY, startFakeDaily } from '../helpers/fake-daily.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../helpers/fake-speech.js';
import { createPal } from '../helpers/fixtures.js';
import { startCallbackReceiver, type CallbackReceiver } from '../helpers/live-fixtures.js';
import { onPostgres, startListeningService, type TestService } from '../helpers/service.js';
import { readWav } from '../helpers/spoken-questions.js';
import { waitFor } from '../helpers/wait-for.js';
import { analyseLipSync, describeLipSync, reportLipSync } from '../helpers/lip-sync.js';
import { reportFigure } from '../helpers/figures.js';
import { cpuSeconds, processTree, pssMb } from '../helpers/process-cost.js';
import { runnerPagesFor } from '../../src/server/live/runner/pages.js';
import { VISITOR_INTERRUPTION, VISITOR_QUESTION, visitorReport } from '../helpers/daily-runner-visitor-standin.js';
import { loadTranscript } from '../../src/server/resources/conversations/transcript-store.js';

const ENTRY = fileURLToPath(new URL('../helpers/daily-runner-visitor-standin.ts', import.meta.url));
const ANSWER = 'The library opens at nine in the morning and closes at six in the evening.';

/** Whether a WAV the recogniser was sent holds speech (not the silence of a track that carries nothing). */
function holdsSpeech(wav: Uint8Array): boolean {
  const { samples } = readWav(wav);
  let loud = 0;
  for (const s of samples) if (Math.abs(s) > 1000) loud++;
  return loud > samples.length * 0.05;
}

interface VisitorRecording {
  frames: Array<{ at: number; grey: number[] }>;
  levels: Array<{ at: number; peak: number }>;
  sent: Array<{ at: number; to: string; data: { event_type?: string; properties?: Record<string, unknown> } }>;
  spokeAt: number | null;
  /** When Grace began to talk over the PAL's answer. */
  interruptedAt: number | null;
  size?: [number, number];
  /** Whole frames as PNG data URLs: as Grace began to speak, and the one whose mouth moved most from it. */
  stills: { resting?: string; speaking?: string };
}

describe("palkit's Daily runner hears a Daily visitor", { skip: onPostgres && 'one leg is enough' }, () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let llm: FakeLlm;
  let stt: FakeSpeechServices;
  let receiver: CallbackReceiver;
  let t: TestService;

  before(async () => {
    [daily, llm, receiver, stt] = await Promise.all([
      startFakeDaily(),
      startFakeLlm(),
      startCallbackReceiver(),
      startFakeSpeechServices({ transcript: '' }),
    ]);
    llm.reply = ANSWER.split(/(?= )/);
    // The recogniser hears words only in audio that holds speech (a silent or missing track hears nothing):
    // Grace's question first, then what she says over the answer.
    let said = 0;
    stt.recognise = (wav) => (holdsSpeech(wav) ? (said++ === 0 ? VISITOR_QUESTION : VISITOR_INTERRUPTION) : '');
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_RUNNER_ENTRY: ENTRY,
      PALKIT_DAILY_RUNNER_PAGES: '1',
      PALKIT_LLM_BASE_URL: llm.baseUrl,
      PALKIT_LLM_MODEL: 'fake',
      PALKIT_STT_BASE_URL: `${stt.url}/v1`,
      PALKIT_STT_API_KEY: 'sk-test',
    });
  });
  after(async () => {
    await t.close();
    await Promise.all([daily.close(), llm.close(), receiver.close(), stt.close()]);
  });

  it("hears the visitor's spoken question through the runner page and answers it", { timeout: 90_000 }, async () => {
    const { palId } = await createPal(t, {
      pal_name: 'Ada',
      system_prompt: 'You are Ada, at the library desk.',
      pipeline_mode: 'full',
      default_face_id: 'rpalkitada',
      definition: { custom_greeting: 'Hello, I am Ada. How can I help?' },
    });
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id: string = r.body.conversation_id;
    const file = visitorReport(id);
    try {
      // What the runner costs while the call talks: its CPU from the moment its tracks are published until
      // the PAL has answered (greeting, question, answer), with its memory (PSS) at the end.
      const pages = runnerPagesFor(t.service.deps);
      await waitFor(() => pages.state(id)?.published.length === 2, {
        timeout: 30_000,
        interval: 50,
        what: () => 'face and voice published',
      });
      const pids = processTree(pages.state(id)!.pid!).map((p) => p.pid);
      const talking = { cpu: cpuSeconds(pids), at: performance.now() };
      // The stand-in writes its recording once the PAL greeted, Grace asked, and the PAL answered.
      await waitFor(() => existsSync(file), { timeout: 60_000, interval: 100, what: () => 'the visitor asked and was answered' });
      const core = (cpuSeconds(pids) - talking.cpu) / ((performance.now() - talking.at) / 1000);
      const pss = pssMb(pids);
      console.log(
        `daily runner while talking: ${Math.round(core * 100)} % of a core over ${((performance.now() - talking.at) / 1000).toFixed(1)} s, ${Math.round(pss)} MB (PSS)`,
      );
      reportFigure({ name: 'daily runner while talking: CPU', value: core * 100, unit: '% of a core', better: 'lower' });
      reportFigure({ name: 'daily runner while talking: memory (PSS)', value: pss, unit: 'MB', better: 'lower' });
      const recording = JSON.parse(readFileSync(file, 'utf8')) as VisitorRecording;
      assert.ok(recording.spokeAt !== null, 'Grace spoke');

      // Heard: the recogniser was sent Grace's speech (from her Daily track, through the page's bridge).
      const heard = stt.transcriptions.filter((x) => x.text === VISITOR_QUESTION);
      assert.ok(heard.length >= 1, `the recogniser heard the question (${JSON.stringify(stt.transcriptions)})`);
      assert.ok(heard[0]!.audioBytes > 32_000, `a second of speech or more reached the recogniser (${heard[0]!.audioBytes} bytes)`);

      // Answered: the transcript holds the question, then the PAL's answer to it.
      const transcript = await waitFor(
        async () => {
          const entries = await loadTranscript(t.service.deps.db, id);
          const asked = entries.findIndex((e) => e.role === 'user' && e.content === VISITOR_QUESTION);
          return asked >= 0 && entries.slice(asked).some((e) => e.role === 'assistant' && e.content.includes(ANSWER)) ? entries : null;
        },
        { timeout: 10_000, interval: 100, what: () => 'the question and its answer in the transcript' },
      );
      assert.ok(transcript.length >= 3, 'greeting, question, answer');

      // Said so in the Daily room: the page sent the protocol's events to everyone there, in order.
      const events = recording.sent.filter((m) => m.to === '*').map((m) => m.data);
      const at = (found: (e: VisitorRecording['sent'][number]['data']) => boolean) => events.findIndex(found);
      const started = at((e) => e.event_type === 'conversation.user.started_speaking');
      const question = at((e) => e.event_type === 'conversation.utterance' && e.properties?.role === 'user');
      const answer = at(
        (e) =>
          e.event_type === 'conversation.utterance' && e.properties?.role === 'replica' && String(e.properties?.speech).includes('nine'),
      );
      assert.ok(started >= 0, `user.started_speaking reached the Daily room (${events.map((e) => e.event_type).join(', ')})`);
      assert.ok(question > started, "the visitor's utterance after it");
      assert.equal(events[question]!.properties?.speech, VISITOR_QUESTION);
      assert.ok(answer > question, "the PAL's answer after the question");

      // Cut off: Grace talked over the answer; the PAL said so to the room, its published voice went quiet,
      // and it answered what she said.
      const interrupted = at((e) => e.event_type === 'conversation.replica_interrupted');
      const followUp = at((e) => e.event_type === 'conversation.utterance' && e.properties?.speech === VISITOR_INTERRUPTION);
      assert.ok(interrupted > question, 'replica_interrupted reached the Daily room after the question');
      assert.ok(followUp > interrupted, "Grace's words over the answer, heard as her next utterance");
      assert.ok(
        (await loadTranscript(t.service.deps.db, id)).some((e) => e.role === 'user' && e.content === VISITOR_INTERRUPTION),
        'in the transcript',
      );
      const levels = recording.levels.filter((l) => l.at >= recording.interruptedAt!);
      const quietFrom = levels.findIndex(
        (l, i) => levels.slice(i, i + 60).length === 60 && levels.slice(i, i + 60).every((q) => q.peak <= 0.003),
      );
      assert.ok(quietFrom >= 0, 'the published voice went quiet after Grace talked over it');
      const stoppedMs = levels[quietFrom]!.at - recording.interruptedAt!;
      console.log(`daily runner barge-in: the published voice quiet (300 ms) ${Math.round(stoppedMs)} ms after Grace began over it`);
      reportFigure({
        name: 'daily runner barge-in: voice stopped',
        value: stoppedMs,
        unit: 'ms',
        better: 'lower',
        bar: '≤ 1000',
        met: stoppedMs <= 1000,
      });
      assert.ok(stoppedMs <= 1000, `the PAL's published voice stopped ${Math.round(stoppedMs)} ms after Grace began`);
      const heardAfterMs = recording.levels.find((l) => l.at > recording.spokeAt! + 500 && l.peak > 0.003)?.at;
      console.log(
        `daily runner ears: ${heard[0]!.audioBytes} bytes of speech heard; the answer's voice ${heardAfterMs ? Math.round(heardAfterMs - recording.spokeAt!) : '?'} ms after Grace began; ` +
          `${events.length} app-messages to the room`,
      );

      // Seen: the face the page published moves its mouth while the PAL's published voice is audible, and
      // rests in its silences (the mouth region of each frame against the frames shown in silence).
      assert.deepEqual(recording.size, [960, 540], "Ada's frame");
      const lips = analyseLipSync(recording);
      console.log(describeLipSync('daily runner published face', lips));
      reportLipSync('daily runner published face', lips);
      // PALKIT_DAILY_FRAMES=<folder> keeps the two whole frames, to look at.
      for (const [name, url] of Object.entries(recording.stills))
        if (process.env.PALKIT_DAILY_FRAMES && url)
          writeFileSync(join(process.env.PALKIT_DAILY_FRAMES, `daily-runner-${name}.png`), Buffer.from(url.split(',')[1]!, 'base64'));
      // The face tests' bars for moving and resting (helpers/lip-sync.ts assertLipSync), and the lag; the first
      // motion of each turn is printed only: this is the runner's page, before Daily's transport.
      assert.ok(lips.voicedWindows >= 20, `${lips.voicedWindows} voiced windows`);
      assert.ok(lips.movedShare >= 0.95, `the mouth moved in ${Math.round(lips.movedShare * 100)} % of the voiced windows`);
      assert.ok(lips.restedShare >= 0.9, `the mouth rested in ${Math.round(lips.restedShare * 100)} % of the silent windows`);
      assert.ok(Math.abs(lips.lagMs) <= 40, `lag ${lips.lagMs} ms`);
    } finally {
      rmSync(file, { force: true });
    }
    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    await waitFor(async () => receiver.bodies.some((b) => b.conversation_id === id && b.event_type === 'system.shutdown'), {
      timeout: 10_000,
      what: () => 'the shutdown callback',
    });
  });
});
