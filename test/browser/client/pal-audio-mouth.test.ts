// Which mouth shape the PAL player gives the face (issue 32: Ada's mouth stayed closed in most calls), on a
// clock the test controls: a stand-in audio context whose render clock, output lag and slice endings the test
// drives, as Chromium's behave (an output ~0.1 s behind rendering; a slice's `ended` soon after it rendered).
import { expect } from '@open-wc/testing';
import { AudioFrameKind, type AudioFrame } from '../../../src/protocol/room.js';
import { visemeIndex, type Viseme } from '../../../src/protocol/visemes.js';
import { OUTPUT_CLOCK_READABLE, PalAudioPlayer } from '../../../src/palkit/client/transport/pal-audio.js';

const RATE = 24000;
const SLICE_S = 0.04;

function slice(viseme: Viseme): AudioFrame {
  const samples = new Int16Array(RATE * SLICE_S).fill(8000);
  return { kind: AudioFrameKind.palVoice, viseme: visemeIndex(viseme), sampleRate: RATE, samples };
}

class FakeSource extends EventTarget {
  buffer: { duration: number } | null = null;
  startAt = 0;
  ended = false;
  start(at: number): void {
    this.startAt = at;
  }
  stop(): void {}
  connect(): void {}
  disconnect(): void {}
}

/** An audio context whose output is `lagS` behind what it renders, on a page clock the test also drives. */
function fakeContext(lagS: number) {
  const sources: FakeSource[] = [];
  const real = new AudioContext();
  const fake = {
    currentTime: 0,
    page: 1000,
    state: 'running',
    outputLatency: lagS,
    baseLatency: 0.01,
    createMediaStreamDestination: () => real.createMediaStreamDestination(),
    createBuffer: (_channels: number, length: number, rate: number) => ({
      duration: length / rate,
      getChannelData: () => new Float32Array(length),
    }),
    createBufferSource: () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    },
    getOutputTimestamp: () => ({ contextTime: Math.max(0, fake.currentTime - lagS), performanceTime: fake.page }),
    resume: () => Promise.resolve(),
    /** Renders `ms` more: both clocks move on, and each slice rendered to its end says so. */
    advance(ms: number): void {
      fake.currentTime += ms / 1000;
      fake.page += ms;
      for (const s of sources) {
        if (s.ended || s.startAt + (s.buffer?.duration ?? SLICE_S) > fake.currentTime) continue;
        s.ended = true;
        s.dispatchEvent(new Event('ended'));
      }
    },
    close: () => real.close(),
  };
  return fake;
}

describe('the mouth shape the PAL player gives the face', () => {
  it('is the shape of the slice heard at the output, although the context rendered it (and let it go) a while ago', async () => {
    const context = fakeContext(0.1);
    const player = new PalAudioPlayer(context as unknown as AudioContext, () => context.page, 0);
    const shapes: Viseme[] = ['A', 'A', 'O', 'O', 'E', 'E', 'M', 'M', 'A', 'A'];
    for (const shape of shapes) player.play(slice(shape)); // 400 ms of voice from 0.06 s (the jitter buffer)
    const lag = OUTPUT_CLOCK_READABLE ? 0.1 : 0; // Gecko's output is taken to be where rendering is
    const wrong: string[] = [];
    context.advance(5);
    for (let step = 0; step < 70; step++, context.advance(10)) {
      // What the visitor hears now (the face chooses 20 ms ahead: half its frame).
      const heard = context.currentTime - lag + 0.02;
      const index = Math.floor((heard - 0.06) / SLICE_S);
      const expected = heard >= 0.06 && index < shapes.length ? shapes[index]! : 'rest';
      const given = player.visemeNow();
      if (given !== expected) wrong.push(`${(context.currentTime * 1000).toFixed(0)} ms: ${given} for ${expected}`);
    }
    expect(wrong, 'shapes given while the voice was heard').to.deep.equal([]);
    player.flush();
    await context.close();
  });

  it('looks ahead by what the face asks for (the time its drawing takes to reach the screen)', async () => {
    const context = fakeContext(0.1);
    const player = new PalAudioPlayer(context as unknown as AudioContext, () => context.page, 0);
    player.play(slice('rest'));
    player.play(slice('rest'));
    player.play(slice('O')); // heard from 0.14 s on the render clock's timeline
    context.advance(OUTPUT_CLOCK_READABLE ? 150 : 50); // the output is at 0.05 s
    expect(player.visemeNow(), 'heard now').to.equal('rest');
    expect(player.visemeNow(80), 'on screen 80 ms from now').to.equal('O');
    player.flush();
    expect(player.visemeNow(80), 'nothing left after a flush').to.equal('rest');
    await context.close();
  });

  it("gives the shape heard after the track's delivery (Chromium's WebRTC path), not the output's", async () => {
    const context = fakeContext(0.1);
    const player = new PalAudioPlayer(context as unknown as AudioContext, () => context.page, 0.015);
    player.play(slice('rest'));
    player.play(slice('rest'));
    player.play(slice('O')); // at the output from 0.14 s on the render clock's timeline, heard from 0.155 s
    const lag = OUTPUT_CLOCK_READABLE ? 0.1 : 0;
    // The output 5 ms into the O (its shape asked half a frame, 20 ms, ahead): heard, it is 10 ms short of it.
    context.advance((0.14 + lag - 0.02 + 0.005) * 1000);
    expect(player.visemeNow(), 'still the slice before, heard now').to.equal('rest');
    context.advance(15);
    expect(player.visemeNow(), 'the O, once heard').to.equal('O');
    player.flush();
    await context.close();
  });
});
