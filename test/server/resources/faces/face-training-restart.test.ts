// Face training survives a crash: the real service runs as a child process, is SIGKILLed while a face
// is mid-training, and restarted on the same database. The job's lease expires, training resumes after
// the last committed step (the video is not downloaded again) and completes, and each of the two
// callbacks arrives exactly once. Runs on PGlite (files in a temp dir) or on PostgreSQL (a database of its own).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifiedWebhook } from '../../../helpers/webhook-verify.js';
import { startCallbackReceiver, startFileServer, waitUntil } from '../../../helpers/loopback.js';
import { portraitClip } from '../../../helpers/face-clips.js';
import { freePort } from '../../../helpers/process.js';
import { testDatabase } from '../../../helpers/pg-template.js';
import { seedDataFolder } from '../../../helpers/pglite-image.js';
import { waitFor } from '../../../helpers/wait-for.js';

const KEY = 'restart-test-key';
const databaseUrl = process.env.PALKIT_TEST_DATABASE_URL;

describe('face training across a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'palkit-restart-'));
  // On PostgreSQL a database of its own, cloned migrated (pg-template.ts); dropped at the end.
  const database = databaseUrl ? testDatabase(databaseUrl) : undefined;
  let databaseOwn = '';
  let port: number;
  let child: ChildProcess | undefined;
  let output = '';
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  const base = () => `http://127.0.0.1:${port}`;

  // Training is slowed (a pause after each step) so that the kill lands mid-way; once restarted, it only
  // needs to stay in progress for the read that follows the restart.
  const env = (stepMs: number) => ({
    ...process.env,
    PALKIT_DATA: dataDir,
    PALKIT_API_KEYS: `${KEY}:1`,
    PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
    PALKIT_JOB_LEASE_SECONDS: '2',
    PALKIT_FACE_TRAINING_STEP_MS: String(stepMs),
    PALKIT_LOG: 'error',
    PALKIT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseOwn,
  });

  // Another shard's service can take the free port between freePort() and this child's bind: the child then
  // exits (EADDRINUSE) while the other answers /healthz, and the first keyed call met the other's 401. A keyed
  // read answers only this service; a first start that lost its port starts again on another. The restart
  // keeps its port (the URLs handed out before the crash name it).
  async function startService(stepMs = 1500, { restart = false } = {}): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (!restart) port = await freePort();
      output = '';
      child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/server/app/cli.ts', 'serve', '--port', String(port), '--host', '127.0.0.1'],
        {
          env: env(stepMs),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      try {
        await waitUntil(
          async () => {
            if (child!.exitCode !== null) throw new Error(`service exited: ${output}`);
            return fetch(`${base()}/v2/replicas`, { headers: { 'x-api-key': KEY } }).then(
              (r) => r.ok,
              () => false,
            );
          },
          60_000,
          'the service to answer a keyed read',
        );
        return;
      } catch (error) {
        if (restart || attempt === 3 || !output.includes('EADDRINUSE')) throw error;
      }
    }
  }

  async function kill(): Promise<void> {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGKILL');
    await exited;
    child = undefined;
  }

  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(base() + path, {
      method,
      headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: (await r.json()) as any };
  };

  before(async () => {
    if (database) databaseOwn = await database.url;
    else await seedDataFolder(dataDir); // the migrated database unpacked, as the harness does (pglite-image.ts)
    files = await startFileServer({ '/face.mp4': { body: portraitClip(3), contentType: 'video/mp4' } });
    receiver = await startCallbackReceiver();
  });

  after(async () => {
    if (child) await kill();
    await files.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.release();
  });

  // Two service processes and a training child on a machine the suite's other shards share: 60 s of 120 was seen.
  it('resumes after SIGKILL mid-training, completes, and sends each callback exactly once', { timeout: 240_000 }, async () => {
    await startService();
    const created = await api('POST', '/v2/replicas', {
      replica_name: 'Crash test',
      train_video_url: `${files.url}/face.mp4`,
      callback_url: `${receiver.url}/training`,
    });
    assert.equal(created.status, 200);
    const id = created.body.replica_id;

    let midway: any;
    await waitUntil(
      async () => {
        midway = (await api('GET', `/v2/replicas/${id}`)).body;
        // Not 3/6 or later: the kill must land at least a whole step before training could finish.
        return midway.status === 'training' && ['1/6', '2/6'].includes(midway.training_progress);
      },
      30_000,
      'training to be part-way',
    );
    await kill();
    assert.equal(receiver.received.length, 0, 'no callback before training finished');

    await startService(300, { restart: true });
    const afterRestart = (await api('GET', `/v2/replicas/${id}`)).body;
    assert.equal(afterRestart.status, 'training');
    // A step may have committed between the read and the kill; none was lost.
    const stepsDone = (progress: string) => Number(progress.split('/')[0]);
    assert.ok(
      stepsDone(afterRestart.training_progress) >= stepsDone(midway.training_progress),
      `committed progress survived the crash: ${midway.training_progress} → ${afterRestart.training_progress}`,
    );
    assert.ok(stepsDone(afterRestart.training_progress) < 6);

    let done: any;
    await waitUntil(
      async () => {
        done = (await api('GET', `/v2/replicas/${id}`)).body;
        return done.status !== 'training';
      },
      60_000,
      'training to finish after the restart',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.training_progress, '6/6');
    assert.ok(done.thumbnail_video_url && done.thumbnail_image_url);
    assert.equal((await fetch(done.thumbnail_video_url)).status, 200);
    assert.equal(files.hits.get('/face.mp4'), 1, 'the video was downloaded once: training resumed, it did not start over');

    await receiver.waitFor(2, 30_000);
    // Before counting, wait until every delivery the service recorded for the face has been delivered: a
    // duplicate (a training finish run twice, a delivery retried) would be a further row, sent before it settles.
    const facesDeliveries = async () =>
      (await api('GET', '/v2/webhooks/deliveries')).body.data.filter((d: any) => d.payload.replica_id === id || d.payload.face_id === id);
    await waitFor(
      async () => {
        const rows = await facesDeliveries();
        return rows.length >= 2 && rows.every((d: any) => d.status === 'delivered') && receiver.received.length >= rows.length;
      },
      { timeout: 30_000, interval: 100, what: 'the face callbacks to be delivered' },
    );
    assert.equal(receiver.received.length, 2, JSON.stringify(receiver.received.map((r) => r.body)));
    const [legacy, current] = receiver.received;
    assert.deepEqual(legacy!.body, { replica_id: id, status: 'ready' });
    assert.deepEqual(current!.body, { face_id: id, status: 'ready' });
    const { secret } = (await api('GET', '/v2/webhooks/secret')).body;
    for (const cb of [legacy!, current!]) {
      assert.ok(verifiedWebhook(secret, cb.headers, cb.raw));
    }
    const deliveries = await facesDeliveries();
    assert.equal(deliveries.length, 2);
    assert.ok(deliveries.every((d: any) => d.status === 'delivered'));
  });
});
