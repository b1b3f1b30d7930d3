// The call recorder on a clock the test moves: audio sent faster than the call runs is not kept past a
// second ahead, nothing is kept past the call's maximum duration, and it is written every second of its clock.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AHEAD_MS, CallRecorder, RECORDING_RATE } from '../../../../src/server/live/recording/call-recorder.js';
import { systemClock } from '../../../../src/server/platform/time.js';
import { ManualClock } from '../../../helpers/clock.js';
import { waitFor } from '../../../helpers/wait-for.js';

/** The recordings' folder, removed when the file's tests end. */
const folder = mkdtempSync(join(tmpdir(), 'palkit-recorder-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let recordings = 0;
const recordingPath = () => join(folder, `call-${recordings++}.pcm`);

const tone = (seconds: number, rate = RECORDING_RATE) =>
  Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) => Math.round(8000 * Math.sin(i / 5)));

async function record(maxSeconds: number, play: (recorder: CallRecorder, clock: { ms: number }) => void): Promise<number> {
  const path = recordingPath();
  const clock = { ms: 1_000_000 };
  const recorder = await CallRecorder.start(path, maxSeconds, { ...systemClock, now: () => new Date(clock.ms) });
  play(recorder, clock);
  const samples = await recorder.stop();
  assert.equal(readFileSync(path).length, samples * 2, 'the file holds what stop() reports');
  return samples / RECORDING_RATE;
}

describe('call recorder bounds', () => {
  it('a source flooding 60 s of audio in one second of call keeps at most a second ahead of the clock', async () => {
    const seconds = await record(3600, (recorder, clock) => {
      for (let i = 0; i < 3000; i++) recorder.add('visitor', tone(0.02), RECORDING_RATE);
      clock.ms += 1000;
      for (let i = 0; i < 3000; i++) recorder.add('visitor', tone(0.02, 44_100), 44_100);
    });
    assert.ok(seconds <= 1 + AHEAD_MS / 1000 + 0.001, `recorded ${seconds} s of a 1 s call`);
    assert.ok(seconds >= 1, 'what fits is kept');
  });

  it('real-time audio is kept whole', async () => {
    const seconds = await record(3600, (recorder, clock) => {
      for (let i = 0; i < 100; i++) {
        clock.ms += 20;
        recorder.add('visitor', tone(0.02), RECORDING_RATE);
      }
    });
    assert.ok(Math.abs(seconds - 2) < 0.001, `recorded ${seconds} s of 2 s`);
  });

  it("nothing is kept past the call's maximum duration, however long the room runs", async () => {
    const seconds = await record(5, (recorder, clock) => {
      for (let i = 0; i < 500; i++) {
        clock.ms += 20;
        recorder.add('visitor', tone(0.02), RECORDING_RATE);
      }
    });
    assert.equal(seconds, 5);
  });
});

describe('call recorder end', () => {
  it('ends when the call ended, however long the room then takes to close', async () => {
    const path = recordingPath();
    const clock = { ms: 1_000_000 };
    const recorder = await CallRecorder.start(path, 3600, { ...systemClock, now: () => new Date(clock.ms) });
    for (let i = 0; i < 100; i++) {
      clock.ms += 20;
      recorder.add('visitor', tone(0.02), RECORDING_RATE);
    }
    const endedAt = clock.ms;
    clock.ms += 1500; // the database and the PAL take their time
    const samples = await recorder.stop(endedAt);
    assert.equal(samples / RECORDING_RATE, 2, 'the 2 s call, not the 3.5 s until the room closed');
    assert.equal(readFileSync(path).length, samples * 2);
  });
});

describe('call recorder pauses', () => {
  it('stands still while paused (no visitor in the room): what is added then is not kept, and the call goes on from where it stopped', async () => {
    const seconds = await record(3600, (recorder, clock) => {
      for (let i = 0; i < 50; i++) {
        clock.ms += 20;
        recorder.add('visitor', tone(0.02), RECORDING_RATE);
      }
      recorder.pause();
      for (let i = 0; i < 3000; i++) {
        clock.ms += 20; // a minute of empty room; the PAL may still be finishing a sentence
        recorder.add('pal', tone(0.02), RECORDING_RATE);
      }
      recorder.resume();
      for (let i = 0; i < 25; i++) {
        clock.ms += 20;
        recorder.add('visitor', tone(0.02), RECORDING_RATE);
      }
    });
    assert.equal(seconds, 1.5, 'the 1.5 s with a visitor, not the 61.5 s the room was open');
  });

  it('stopped while paused, ends where the pause began', async () => {
    const path = recordingPath();
    const clock = { ms: 1_000_000 };
    const recorder = await CallRecorder.start(path, 3600, { ...systemClock, now: () => new Date(clock.ms) });
    clock.ms += 600;
    recorder.pause();
    clock.ms += 60_000;
    assert.equal((await recorder.stop()) / RECORDING_RATE, 0.6);
  });
});

describe('call recorder writes', () => {
  it("appends to its file every second of the call's clock, so that a crash keeps what was heard", async () => {
    const path = recordingPath();
    const clock = new ManualClock(1_000_000);
    const recorder = await CallRecorder.start(path, 3600, clock);
    const onDisk = () => readFileSync(path).length / 2 / RECORDING_RATE;
    /** The file's writes are real I/O (no clock): waited for. */
    const written = (seconds: number) =>
      waitFor(() => onDisk() === seconds, { timeout: 5_000, interval: 10, what: `${seconds} s on disk (${onDisk()} s)` });
    for (let i = 0; i < 75; i++) {
      recorder.add('visitor', tone(0.02), RECORDING_RATE);
      await clock.advance(20);
      if (i === 48) {
        await clock.drain(50);
        assert.equal(onDisk(), 0, 'nothing before the first second');
      }
    }
    await written(1); // at 1.5 s
    await clock.advance(500);
    await written(2); // the second one (its last half second silent) at 2 s
    assert.equal((await recorder.stop()) / RECORDING_RATE, 2);
    assert.equal(clock.timers, 0, 'stopped: its timer is gone');
  });
});
