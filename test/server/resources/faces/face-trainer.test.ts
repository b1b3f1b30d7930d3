// Face training's learning steps (landmarks, then the rig) run in a process of their own, started for each
// step and ended after it (rig/trainer-process.ts): the landmark model never loads in the service, a
// trainer that crashes ends that training in `error` with a message that says so while the service
// answers on, one that hangs is ended after its bound, and steps waiting for the trainer are bounded.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RetryLater } from '../../../../src/server/platform/jobs/queue.js';
import { Trainer, TrainerFailed } from '../../../../src/server/resources/faces/rig/trainer-process.js';
import { ManualClock } from '../../../helpers/clock.js';
import { portraitPhoto } from '../../../helpers/face-clips.js';
import { startCallbackReceiver, startFileServer, waitUntil } from '../../../helpers/loopback.js';
import { startTestService, onPostgres, type TestService } from '../../../helpers/service.js';

const HANGING = fileURLToPath(new URL('../../../helpers/face-trainer-hang.ts', import.meta.url));
const TELLS_ENV = fileURLToPath(new URL('../../../helpers/face-trainer-env.ts', import.meta.url));
const CRASHES = fileURLToPath(new URL('../../../helpers/face-trainer-crash.ts', import.meta.url));

interface Seen {
  child: ChildProcess;
  step: string;
  exited: Promise<void>;
}

/** The trainers started while this runs, as published on the trainer's diagnostics channel. */
function watchTrainers(onStart: (seen: Seen) => void = () => undefined): { seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const listener = (message: unknown) => {
    const { child, step } = message as { child: ChildProcess; step: string };
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const entry = { child, step, exited };
    seen.push(entry);
    onStart(entry);
  };
  subscribe('palkit:face-trainer', listener);
  return { seen, stop: () => unsubscribe('palkit:face-trainer', listener) };
}

const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: the trainer process and its bounds';

describe('the face trainer, in a process of its own', { skip }, () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;

  before(async () => {
    t = await startTestService();
    files = await startFileServer({ '/face.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' } });
    receiver = await startCallbackReceiver();
  });
  after(async () => {
    await t.close();
    await files.close();
    await receiver.close();
  });

  async function trained(id: string) {
    await t.service.deps.jobs.drain(180_000);
    return (await t.api('GET', `/v2/faces/${id}`)).body;
  }

  it('finds the landmarks and builds the rig in trainers ended after their step; the detector never loads in the service', async () => {
    const trainers = watchTrainers();
    try {
      const created = await t.api('POST', '/v2/faces', { face_name: 'Own process', train_video_url: `${files.url}/face.jpg` });
      const face = await trained(created.body.face_id);
      assert.equal(face.status, 'completed', JSON.stringify(face));
      assert.deepEqual(
        trainers.seen.map((s) => s.step),
        ['analyse', 'rig'],
      );
      await Promise.all(trainers.seen.map((s) => s.exited));
      assert.ok(trainers.seen.every((s) => ended(s.child) && s.child.pid !== process.pid));
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter(
        (path) => path.includes('@vladmandic/human') || path.includes('tfjs-backend-wasm'),
      );
      assert.deepEqual(loaded, [], 'the landmark model is not loaded in the service');
    } finally {
      trainers.stop();
    }
  });

  it('ends the training in error when its trainer crashes, and the service answers on and trains the next face', async () => {
    // A crash from outside (the OOM killer, a native fault): the trainer is killed as soon as it starts finding the face.
    const trainers = watchTrainers((seen) => {
      if (seen.step === 'analyse') seen.child.kill('SIGKILL');
    });
    let id: string;
    try {
      const created = await t.api('POST', '/v2/faces', {
        face_name: 'Crash',
        train_video_url: `${files.url}/face.jpg`,
        callback_url: `${receiver.url}/crash`,
      });
      id = created.body.face_id;
      const face = await trained(id);
      assert.equal(face.status, 'error');
      assert.match(face.error_message, /^the face trainer crashed while finding the face \(killed by SIGKILL\): train the face again$/);
      await waitUntil(() => receiver.received.filter((r) => r.body.face_id === id).length >= 1, 15_000, 'the error callback');
      assert.deepEqual(receiver.received.find((r) => r.body.face_id === id)!.body, {
        face_id: id,
        status: 'error',
        error_message: face.error_message,
      });
      assert.deepEqual(
        trainers.seen.map((s) => s.step),
        ['analyse'],
        'no retry after a crash: the job ended',
      );
    } finally {
      trainers.stop();
    }
    assert.equal((await t.api('GET', '/healthz')).status, 200);
    const next = await t.api('POST', '/v2/faces', { face_name: 'After the crash', train_video_url: `${files.url}/face.jpg` });
    assert.equal((await trained(next.body.face_id)).status, 'completed');
  });
});

describe("the face trainer's bounds", { skip }, () => {
  const request = { ffmpeg: '/bin/false', path: '/nonexistent.mp4', still: true };

  it('ends a trainer that never answers after its start bound, with a message that says so', async () => {
    const clock = new ManualClock();
    const trainer = new Trainer({ clock, entry: HANGING });
    const trainers = watchTrainers();
    try {
      const step = trainer.analyse(request, new AbortController().signal);
      const failed = assert.rejects(
        step,
        (e: Error) =>
          e instanceof TrainerFailed &&
          /^the face trainer stopped responding while finding the face \(nothing for 120 s\) and was ended: train the face again$/.test(
            e.message,
          ),
      );
      await clock.advance(119_000);
      assert.equal(ended(trainers.seen[0]!.child), false, 'still given its time');
      await clock.advance(1_000);
      await failed;
      await trainers.seen[0]!.exited;
      assert.equal(trainers.seen[0]!.child.signalCode, 'SIGKILL');
    } finally {
      trainers.stop();
    }
  });

  it("fails a step whose trainer crashes with the crash's own words, whatever the service's working directory", async () => {
    const cwd = process.cwd();
    // From the source the trainer runs through tsx: found from the service's files, not from its working directory.
    process.chdir(tmpdir());
    try {
      const trainer = new Trainer({ clock: new ManualClock(), entry: CRASHES });
      await assert.rejects(
        trainer.makeRig(
          {
            ffmpeg: '/bin/false',
            path: '/nonexistent.mp4',
            analysis: { fps: 10, width: 1, height: 1, frames: 0, still: true, samples: [] },
          },
          new AbortController().signal,
        ),
        (e: Error) =>
          e instanceof TrainerFailed &&
          /^the face trainer crashed while building the face \(exit code 1: TypeError: the trainer could not load its model\): train the face again$/.test(
            e.message,
          ),
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it("hands the trainer none of the service's settings or secrets", async () => {
    process.env.PALKIT_TRAINER_TEST_SECRET = 'not for the trainer';
    try {
      const trainer = new Trainer({ clock: new ManualClock(), entry: TELLS_ENV });
      await assert.rejects(trainer.analyse(request, new AbortController().signal), (e: Error) => {
        const names = e.message.split(' ');
        assert.ok(names.includes('PATH'), e.message);
        assert.deepEqual(
          names.filter((n) => /PALKIT|DATABASE|KEY|SECRET|TOKEN/.test(n)),
          [],
        );
        return true;
      });
    } finally {
      delete process.env.PALKIT_TRAINER_TEST_SECRET;
    }
  });

  it('runs one trainer at a time, lets four steps wait, turns more away, and ends all on abort', async () => {
    const trainer = new Trainer({ clock: new ManualClock(), entry: HANGING });
    const trainers = watchTrainers();
    const abort = new AbortController();
    try {
      const steps = Array.from({ length: 5 }, () => trainer.analyse(request, abort.signal));
      const outcomes = Promise.allSettled(steps);
      await assert.rejects(trainer.analyse(request, abort.signal), (e: Error) => e instanceof RetryLater && /busy/.test(e.message));
      assert.equal(trainers.seen.length, 1, 'one trainer runs; the others wait');
      abort.abort();
      const settled = await outcomes;
      assert.ok(settled.every((s) => s.status === 'rejected'));
      await trainers.seen[0]!.exited;
      assert.equal(trainers.seen.length, 1, 'no waiting step started a trainer after the abort');
    } finally {
      trainers.stop();
    }
  });
});
