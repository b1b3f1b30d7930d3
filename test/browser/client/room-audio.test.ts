import { expect } from '@open-wc/testing';
import { AudioFrameKind, decodeAudioFrame, encodeAudioFrame, type AudioFrame } from '../../../src/protocol/room.js';
import { visemeIndex } from '../../../src/protocol/visemes.js';
import { MICROPHONE_RATE, MicrophoneSender } from '../../../src/palkit/client/transport/microphone.js';
import { PalAudioPlayer } from '../../../src/palkit/client/transport/pal-audio.js';
import { waitFor } from '../helpers/wait-for.js';

const RATE = 22050;

/** One 40 ms slice of a 440 Hz tone, as the room sends the PAL's voice. */
function toneSlice(viseme: 'A' | 'M' = 'A'): AudioFrame {
  const samples = new Int16Array(RATE / 25);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / RATE));
  return { kind: AudioFrameKind.palVoice, viseme: visemeIndex(viseme), sampleRate: RATE, samples };
}

/** What an analyser hears on `track`: `level()` is the RMS of its last few ms. */
async function listenTo(track: MediaStreamTrack) {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  context.createMediaStreamSource(new MediaStream([track])).connect(analyser);
  const data = new Float32Array(analyser.fftSize);
  return {
    level: () => {
      analyser.getFloatTimeDomainData(data);
      return Math.sqrt(data.reduce((s, v) => s + v * v, 0) / data.length);
    },
    close: () => context.close(),
  };
}

/** Waits until `context`'s own clock (the audio rendered) has moved `seconds` on from now. */
async function rendered(context: AudioContext, seconds: number): Promise<void> {
  const end = context.currentTime + seconds;
  await waitFor(() => context.currentTime >= end, { what: `${seconds * 1000} ms of audio rendered` });
}

describe('room audio frames', () => {
  it('round-trip through their 8-byte header and refuse what is not one', () => {
    const frame = toneSlice('M');
    const decoded = decodeAudioFrame(encodeAudioFrame(frame));
    expect(decoded?.kind).to.equal(AudioFrameKind.palVoice);
    expect(decoded?.viseme).to.equal(visemeIndex('M'));
    expect(decoded?.sampleRate).to.equal(RATE);
    expect(Array.from(decoded!.samples.slice(0, 50))).to.deep.equal(Array.from(frame.samples.slice(0, 50)));
    expect(decodeAudioFrame(new Uint8Array(5))).to.equal(null);
    expect(decodeAudioFrame(new Uint8Array(9))).to.equal(null, 'odd sample bytes');
    expect(decodeAudioFrame(new Uint8Array(12)), 'no sample rate').to.equal(null);
  });
});

describe('PalAudioPlayer', () => {
  it("plays the PAL's slices as a live MediaStream audio track, knows the mouth shape heard now, and goes silent on flush", async () => {
    const context = new AudioContext();
    await context.resume();
    const player = new PalAudioPlayer(context);
    expect(player.track.kind).to.equal('audio');
    expect(player.track.readyState).to.equal('live');
    const toneEnds = context.currentTime + 2;
    for (let i = 0; i < 50; i++) player.play(toneSlice(i < 25 ? 'A' : 'M')); // 2 s of tone
    expect(player.speaking()).to.equal(true);
    await waitFor(() => player.visemeNow() === 'A', { what: 'the first slices playing' });
    const ear = await listenTo(player.track);
    const loud = await waitFor(
      () => {
        const level = ear.level();
        return level > 0.1 && level;
      },
      { what: 'the tone heard' },
    );
    expect(loud).to.be.greaterThan(0.1);
    player.flush();
    expect(player.speaking()).to.equal(false);
    expect(player.visemeNow()).to.equal('rest');
    // Silence while the tone, had it not been flushed, would still be playing (the audio clock says when).
    const after = await waitFor(
      () => (ear.level() < 0.001 ? 'silent' : context.currentTime > toneEnds - 0.5 && "still sounding near the tone's end"),
      { what: 'silence' },
    );
    expect(after).to.equal('silent');
    await ear.close();
    player.close();
    expect(player.track.readyState).to.equal('ended');
    await context.close();
  });
});

describe('MicrophoneSender', () => {
  it('sends the microphone as 20 ms frames of 16 kHz samples, and nothing while muted', async () => {
    const context = new AudioContext();
    await context.resume();
    const source = new AudioContext();
    const oscillator = source.createOscillator();
    const out = source.createMediaStreamDestination();
    oscillator.connect(out);
    oscillator.start();
    const sent: Uint8Array[] = [];
    const mic = new MicrophoneSender(context, (bytes) => sent.push(bytes));
    let asked: MediaStreamConstraints | undefined;
    await mic.open(async (constraints) => {
      asked = constraints;
      return out.stream;
    });
    expect(asked?.audio).to.include({ echoCancellation: true, noiseSuppression: true });
    await waitFor(() => sent.length >= 10, { what: 'ten frames' });
    const frame = decodeAudioFrame(sent[5]!)!;
    expect(frame.kind).to.equal(AudioFrameKind.microphone);
    expect(frame.sampleRate).to.equal(MICROPHONE_RATE);
    expect(frame.samples.length).to.equal(320);
    expect(Math.max(...frame.samples.map(Math.abs))).to.be.greaterThan(5000);
    mic.setEnabled(false);
    const muted = sent.length;
    // Ten frames' worth of audio rendered while muted: none of it is sent.
    await rendered(context, 0.2);
    expect(sent.length).to.equal(muted);
    mic.close();
    expect(mic.track).to.equal(null);
    await Promise.all([context.close(), source.close()]);
  });
});
