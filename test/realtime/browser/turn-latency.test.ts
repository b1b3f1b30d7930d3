// What the visitor hears, measured in the page (issue 26): the PAL player says when an audible sample
// reaches the output (checked against an analyser the test runs on the player's own track), the drawn
// face reports each mouth shape drawn against its audio's output time (lip sync), and the meter turns
// these into one report per reply, leaving out what it could not measure.
import { expect } from '@open-wc/testing';
import { AudioFrameKind, type AudioFrame } from '../../../src/protocol/room.js';
import { visemeIndex, type Viseme } from '../../../src/protocol/visemes.js';
import { OUTPUT_CLOCK_READABLE, PalAudioPlayer, type PalAudioProbe } from '../../../src/palkit/client/transport/pal-audio.js';
import { TurnLatencyMeter, type TurnLatencyReport } from '../../../src/palkit/client/transport/turn-latency.js';
import { createDrawnFaceTrack } from '../../../src/palkit/client/media/face/drawn-face.js';
import { pageEngine } from '../../../src/palkit/client/media/page-engine.js';
import { reportFigure } from '../../helpers/figures.js';

const RATE = 24000;

function slice(loud: boolean, viseme: Viseme = 'A'): AudioFrame {
  const samples = new Int16Array(RATE / 25);
  if (loud) for (let i = 0; i < samples.length; i++) samples[i] = Math.round(10000 * Math.sin((2 * Math.PI * 300 * i) / RATE));
  return { kind: AudioFrameKind.palVoice, viseme: visemeIndex(viseme), sampleRate: RATE, samples };
}

/**
 * Polls an analyser on `track` every 5 ms until it hears a sample louder than −50 dBFS; when that reaches this
 * context's output (the page time then, plus the output's latency where it may be asked: not in Gecko).
 */
async function firstAudible(track: MediaStreamTrack, timeoutMs: number): Promise<number | null> {
  const context = new AudioContext();
  await context.resume();
  const analyser = context.createAnalyser();
  analyser.fftSize = 256;
  context.createMediaStreamSource(new MediaStream([track])).connect(analyser);
  const data = new Float32Array(analyser.fftSize);
  const end = performance.now() + timeoutMs;
  try {
    while (performance.now() < end) {
      analyser.getFloatTimeDomainData(data);
      if (data.some((v) => Math.abs(v) > 0.003))
        return performance.now() + (OUTPUT_CLOCK_READABLE ? (context.outputLatency || context.baseLatency) * 1000 : 0);
      await new Promise((r) => setTimeout(r, 5));
    }
    return null;
  } finally {
    await context.close();
  }
}

describe('heard latency in the page', () => {
  it("the player's output time of the first audible sample agrees with an analyser on its track", async () => {
    const context = new AudioContext();
    await context.resume();
    const player = new PalAudioPlayer(context);
    const audible: number[] = [];
    player.probe = { audible: (at) => audible.push(at), mouth: () => undefined };
    const listening = firstAudible(player.track, 8000);
    await new Promise((r) => setTimeout(r, 100));
    // 200 ms of silence, then the voice: the first audible sample is the 6th slice's first.
    for (let i = 0; i < 5; i++) player.play(slice(false));
    for (let i = 0; i < 10; i++) player.play(slice(true));
    const heard = await listening;
    expect(heard, 'the analyser heard the voice').to.not.equal(null);
    for (let i = 0; i < 100 && audible.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(audible.length, "the run's first audible sample, once").to.equal(1);
    const reported = audible[0]!;
    console.log(`first audible: player ${reported.toFixed(1)}, analyser ${heard!.toFixed(1)} (diff ${(heard! - reported).toFixed(1)} ms)`);
    // The bar: the figure a page reports as heard latency (pal-turn-latency) is the one a visitor hears.
    reportFigure({
      name: `${pageEngine()}: first audible, player vs analyser`,
      value: Math.abs(heard! - reported),
      unit: 'ms',
      better: 'lower',
      bar: '< 100',
      met: Math.abs(heard! - reported) < 100,
    });
    expect(Math.abs(heard! - reported)).to.be.lessThan(100);
    player.close();
    await context.close();
  });

  it('a run that begins before the page could poll does not hide the first audible sample of the one before', async () => {
    const context = new AudioContext();
    await context.resume();
    const player = new PalAudioPlayer(context);
    const audible: number[] = [];
    player.probe = { audible: (at) => audible.push(at), mouth: () => undefined };
    await new Promise((r) => setTimeout(r, 100));
    const before = performance.now();
    player.play(slice(true));
    // The page is busy (a long task) past the end of that slice: its poll has not run when the next run begins.
    while (performance.now() < before + 250) {
      /* busy */
    }
    player.play(slice(true));
    for (let i = 0; i < 100 && audible.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(audible.length).to.equal(1);
    // The first slice played from about 60 ms after it was given (the jitter buffer), the second from about 310 ms.
    expect(audible[0]! - before, `reported ${(audible[0]! - before).toFixed(0)} ms after the first slice was given`).to.be.lessThan(200);
    player.close();
    await context.close();
  });

  it('never asks a Gecko context where its output is (a read could freeze the page)', async function () {
    // Firefox answers these from the sound server with its audio graph locked; the heard-latency poll (5 ms)
    // and the face (40 ms) read the output clock often. Other engines answer without a lock.
    if (OUTPUT_CLOCK_READABLE) this.skip();
    const context = new AudioContext();
    await context.resume();
    let reads = 0;
    const stamp = context.getOutputTimestamp.bind(context);
    const latency = Object.getOwnPropertyDescriptor(AudioContext.prototype, 'outputLatency')!.get!;
    Object.defineProperty(context, 'getOutputTimestamp', { value: () => (reads++, stamp()) });
    Object.defineProperty(context, 'outputLatency', { get: () => (reads++, latency.call(context)) });
    const player = new PalAudioPlayer(context);
    const audible: number[] = [];
    player.probe = { audible: (at) => audible.push(at), mouth: () => undefined };
    for (let i = 0; i < 25; i++) player.play(slice(true)); // 1 s
    while (player.speaking()) {
      player.visemeNow();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(audible.length, 'the first audible sample is still reported').to.equal(1);
    expect(reads).to.equal(0);
    player.close();
    await context.close();
  });

  it('the drawn face keeps the mouth within 40 ms of the voice at the output (p95)', async function () {
    // A busy machine can stall the page's audio clock for a second or more, and the face then draws no
    // shape against the output in the 2 s of voice: such a run measures the machine, so it is run again.
    this.retries(2);
    const context = new AudioContext();
    await context.resume();
    const player = new PalAudioPlayer(context);
    const offsets: number[] = [];
    player.probe = { audible: () => undefined, mouth: (at, heardAt) => offsets.push(at - heardAt) } satisfies PalAudioProbe;
    const face = createDrawnFaceTrack(player, { reducedMotion: true });
    const shapes: Viseme[] = ['A', 'O', 'M', 'E', 'F'];
    for (let i = 0; i < 50; i++) player.play(slice(true, shapes[i % shapes.length]!)); // 2 s
    // A loaded page renders audio late: wait for the voice to have played, however long that takes.
    for (let i = 0; i < 200 && player.speaking(); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    face.stop();
    player.close();
    await context.close();
    expect(offsets.length, 'slices drawn').to.be.greaterThan(10);
    const sorted = offsets.map(Math.abs).sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
    console.log(
      `lip sync: ${offsets.length} shapes, |offset| p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} p95 ${p95.toFixed(1)} ms; mean signed ${(offsets.reduce((a, b) => a + b, 0) / offsets.length).toFixed(1)} ms`,
    );
    reportFigure({
      name: `${pageEngine()}: drawn face's mouth vs voice, p95`,
      value: p95,
      unit: 'ms',
      better: 'lower',
      bar: '≤ 40',
      met: p95 <= 40,
    });
    expect(p95).to.be.at.most(40);
  });

  it('reports once per reply after a turn; what was not measured is absent, not 0', async () => {
    let now = 1000;
    const reports: TurnLatencyReport[] = [];
    const meter = new TurnLatencyMeter(
      (r) => reports.push(r),
      () => now,
    );
    // The greeting: no turn before it, no report.
    meter.replyStarted('greeting');
    meter.audible(1010);
    meter.replyEnded('greeting', 0);
    await new Promise((r) => setTimeout(r, 150));
    expect(reports).to.deep.equal([]);

    now = 2000;
    meter.turnEnded('text');
    meter.audible(1990); // audio of before the turn is not the reply
    meter.audible(2010); // nor what the PAL was still saying before the reply started
    meter.replyStarted('inf-1');
    meter.audible(2450);
    meter.audible(2500);
    meter.replyEnded('inf-1', 0);
    await new Promise((r) => setTimeout(r, 150));
    expect(reports.length).to.equal(1);
    expect(reports[0]!.heardMs).to.equal(450);
    expect(reports[0]!.inferenceId).to.equal('inf-1');
    expect(reports[0]!.input).to.equal('text');
    expect('mouthMs' in reports[0]!, 'no face drawn: no mouthMs').to.equal(false);
    expect('lipSyncMs' in reports[0]!).to.equal(false);

    // A spoken turn: the service's mark came 300 ms after the speech ended; the figures count from the speech.
    now = 5000;
    meter.turnEnded('speech', 300);
    meter.mouth(4800, 4790); // the PAL's last words before the reply started
    meter.replyStarted('inf-2');
    meter.mouth(5610, 5600);
    meter.mouth(5650, 5640);
    meter.replyEnded('inf-2', 0);
    await new Promise((r) => setTimeout(r, 150));
    expect(reports.length).to.equal(2);
    expect('heardMs' in reports[1]!, 'no audio output: no heardMs').to.equal(false);
    expect(reports[1]).to.include({ mouthMs: 910, lipSyncMs: 10, input: 'speech', inferenceId: 'inf-2' });

    // A reply nothing of was heard or seen here (text mode): no report rather than a report of zeros.
    meter.turnEnded('text');
    meter.replyStarted('inf-3');
    meter.replyEnded('inf-3', 0);
    await new Promise((r) => setTimeout(r, 150));
    expect(reports.length).to.equal(2);
    meter.close();
  });
});
