// Recordings: a recorded local call lands in the customer's S3 (s3rver), Azure Blob (Azurite) and
// Google Cloud Storage (a fake of its JSON API) with exact `application.recording_ready` fields, a
// refusing destination yields one `application.recording_copy_failed` after the retries, destinations
// keep their credentials write-only, and the keyed API lists recordings with short-lived download links.
// The services run on a ManualClock and the visitor speaks on it (speakToneOn), so a recording is exactly as
// long as its call, whatever the machine's load. The crash tests (service processes killed mid-copy and
// mid-call, on real time) are in test/realtime/chaos-recording-crash.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { RecordingCopyFailedCallback, RecordingReadyCallback } from '../../../../src/protocol/callbacks.js';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { RoomClient } from '../../../helpers/live-fixtures.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import {
  AZURITE_ACCOUNT,
  AZURITE_KEY,
  S3_CREDENTIALS,
  startAzurite,
  startFakeGcs,
  startS3rver,
  type FakeGcs,
  type Peer,
} from '../../../helpers/storage-peers.js';
import { greeted, loudness, speakToneOn } from '../../../helpers/recorded-call.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { ManualClock } from '../../../helpers/clock.js';

const SECONDS = 3;

describe('recordings', () => {
  let t: TestService;
  /** The service's time: the calls are spoken on it, and the recorder places and writes their audio by it. */
  const clock = new ManualClock();
  let receiver: Receiver;
  let s3: Peer;
  let azure: Peer;
  let gcs: FakeGcs;
  let palId: string;
  const dir = mkdtempSync(join(tmpdir(), 'palkit-recordings-test-'));

  before(async () => {
    // Each peer alone, so a failing one names itself.
    s3 = await startS3rver(['recordings']);
    azure = await startAzurite();
    gcs = await startFakeGcs();
    const container = new BlobServiceClient(
      azure.endpoint,
      new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    ).getContainerClient('calls');
    await container.create();
    receiver = await startReceiver();
    t = await startListeningService(
      {
        PALKIT_RECORDING_DIR: dir,
        PALKIT_RECORDING_RETRY_MS: '100',
        PALKIT_RECORDING_MAX_ATTEMPTS: '3',
        PALKIT_RECORDING_LINK_SECONDS: '2',
        PALKIT_PAL_WORDS_PER_MINUTE: '6000',
        PALKIT_ROOM_POLL_MS: '200',
      },
      { clock },
    );
    const pal = await t.api('POST', '/v2/pals', {
      pal_name: 'Recorder',
      system_prompt: 'Echo',
      pipeline_mode: 'echo',
      default_face_id: 'rpalkitada',
    });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    palId = pal.body.pal_id;
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await Promise.all([s3?.close(), azure?.close(), gcs?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function destination(body: Record<string, unknown>): Promise<string> {
    const r = await t.api('POST', '/v2/recording-destinations', body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.destination_id;
  }

  /**
   * A call with the visitor speaking `seconds` of tone on the service's clock, ended when the tone ends and
   * left when its recording is stored; returns the conversation id and the call's length (the row's).
   */
  async function recordedCall(destinationId: string, seconds = SECONDS): Promise<{ conversationId: string; callSeconds: number }> {
    const created = await t.api('POST', '/v2/conversations', {
      pal_id: palId,
      callback_url: `${receiver.url}/calls`,
      properties: { enable_recording: true, recording_destination_id: destinationId },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const client = await RoomClient.join(created.body.conversation_url, created.body.meeting_token, 'Visitor');
    const joined = client.frames.find((f) => f.type === 'joined');
    assert.ok(joined?.type === 'joined' && joined.recording === true, 'the joined frame says the call is recorded');
    await greeted(client);
    await speakToneOn(clock, client, seconds);
    assert.equal((await t.api('POST', `/v2/conversations/${created.body.conversation_id}/end`)).status, 200);
    await client.closed;
    assert.deepEqual(
      client.events('conversation.replica.stopped_speaking').map((m) => m.properties.interrupted),
      [false, false],
      'the PAL said its disclosure and greeting, whole, and nothing after them',
    );
    await stored(created.body.conversation_id);
    const row = await t.service.deps.db
      .selectFrom('conversations')
      .select(['live_started_at', 'ended_at'])
      .where('conversation_id', '=', created.body.conversation_id)
      .executeTakeFirstOrThrow();
    return { conversationId: created.body.conversation_id, callSeconds: (row.ended_at!.getTime() - row.live_started_at!.getTime()) / 1000 };
  }

  const received = (conversationId: string, eventType: string): any[] =>
    receiver.received
      .map((r) => r.body)
      .flat()
      .filter((b: any) => b?.conversation_id === conversationId && b.event_type === eventType);

  /** The room closed and kept the call's recording (its own I/O, on no clock): the copy can start. */
  async function stored(conversationId: string): Promise<void> {
    await waitFor(
      async () => {
        const list = await t.api('GET', `/v2/conversations/${conversationId}/recordings`);
        return list.body.data.length === 1 && list.body.data[0].status !== 'recording';
      },
      { timeout: 20_000, interval: 50, what: 'the recording to be stored' },
    );
  }

  /**
   * Runs the jobs due now, then moves the service's clock `ms` forward `step` at a time, running the jobs
   * (a copy's retry, a callback's) that fall due on the way.
   */
  async function runJobs(ms: number, step = 100): Promise<void> {
    const { jobs } = t.service.deps;
    await jobs.drain(0);
    for (let moved = 0; moved < ms; moved += step) {
      await clock.advance(step);
      await jobs.drain(0);
    }
  }

  /**
   * The callbacks of this type, once the first has come: the jobs run while the clock moves up to
   * 20 s (the copy's retries); with `settle`, the rest of those 20 s too (to see any duplicate).
   */
  async function callbacks(conversationId: string, eventType: string, settle = false): Promise<any[]> {
    const matching = () => received(conversationId, eventType);
    for (let moved = 0; matching().length === 0; moved += 100) {
      assert.ok(moved < 20_000, `no ${eventType} within 20 s of the service's clock`);
      await runJobs(100);
    }
    if (settle) await runJobs(20_000, 1_000);
    return matching();
  }

  async function recordingOf(conversationId: string) {
    const list = await t.api('GET', `/v2/conversations/${conversationId}/recordings`);
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 1);
    return list.body.data[0];
  }

  // The calls are spoken on the service's clock, which they share: one after another.
  describe('calls recorded', () => {
    it('delivers a recorded call to S3 (s3rver) with exact recording_ready fields', async () => {
      const id = await destination({
        provider: 's3',
        bucket_name: 'recordings',
        endpoint: s3.endpoint,
        prefix: 'palkit/',
        credentials: S3_CREDENTIALS,
      });
      const { conversationId, callSeconds } = await recordedCall(id);
      const [ready, ...more] = await callbacks(conversationId, 'application.recording_ready', true);
      assert.equal(more.length, 0, 'recording_ready is sent once');
      const recording = await recordingOf(conversationId);
      const key = `palkit/${conversationId}/${recording.recording_id}.wav`;
      assert.deepEqual(Object.keys(ready.properties).sort(), ['bucket_name', 'duration', 's3_key', 'storage_provider', 'storage_uri']);
      assert.equal(ready.message_type, 'application');
      RecordingReadyCallback.parse(ready); // the interface's schema
      assert.equal(ready.properties.bucket_name, 'recordings');
      assert.equal(ready.properties.s3_key, key);
      assert.equal(ready.properties.storage_provider, 's3');
      assert.equal(ready.properties.storage_uri, `s3://recordings/${key}`);
      // On the service's clock the call lasts exactly as long as the tone, and the recording as long as the call.
      assert.equal(callSeconds, SECONDS);
      assert.equal(ready.properties.duration, callSeconds, `recording ${ready.properties.duration} s vs call ${callSeconds} s`);
      assert.equal(recording.status, 'delivered');

      const client = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const object = await client.send(new GetObjectCommand({ Bucket: 'recordings', Key: key }));
      const wav = Buffer.from(await object.Body!.transformToByteArray());
      client.destroy();
      assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
      assert.equal(wav.readUInt32LE(24), 16_000);
      assert.ok(Math.abs((wav.length - 44) / 2 / 16_000 - ready.properties.duration) < 0.01, 'the object is as long as the callback says');
      // The visitor's tone is in the mix (amplitude 8000 → mean |x| ≈ 5100) while it was spoken.
      assert.ok(loudness(wav, 1, 2) > 3000, `the visitor's voice is recorded (${loudness(wav, 1, 2)})`);
    });

    it('delivers to Azure Blob (Azurite) with the blob URL as storage_uri', async () => {
      const id = await destination({
        provider: 'azure_blob',
        bucket_name: 'calls',
        endpoint: azure.endpoint,
        credentials: { account_name: AZURITE_ACCOUNT, account_key: AZURITE_KEY },
      });
      const { conversationId, callSeconds } = await recordedCall(id);
      const [ready, ...more] = await callbacks(conversationId, 'application.recording_ready', true);
      assert.equal(more.length, 0);
      const recording = await recordingOf(conversationId);
      const key = `${conversationId}/${recording.recording_id}.wav`;
      assert.deepEqual(ready.properties, {
        bucket_name: 'calls',
        s3_key: key,
        duration: ready.properties.duration,
        storage_provider: 'azure_blob',
        storage_uri: `${azure.endpoint}/calls/${key}`,
      });
      assert.equal(callSeconds, SECONDS);
      assert.equal(ready.properties.duration, callSeconds);
      const blob = new BlobServiceClient(azure.endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY))
        .getContainerClient('calls')
        .getBlobClient(key);
      const bytes = await blob.downloadToBuffer();
      assert.equal(bytes.subarray(8, 12).toString(), 'WAVE');
      assert.equal((await blob.getProperties()).contentType, 'audio/wav');
    });

    it('delivers to Google Cloud Storage (JSON API fake) with a gs:// storage_uri', async () => {
      const id = await destination({ provider: 'gcs', bucket_name: 'gcs-calls', endpoint: gcs.endpoint, credentials: {} });
      const { conversationId, callSeconds } = await recordedCall(id);
      const [ready, ...more] = await callbacks(conversationId, 'application.recording_ready', true);
      assert.equal(more.length, 0);
      const recording = await recordingOf(conversationId);
      const key = `${conversationId}/${recording.recording_id}.wav`;
      assert.deepEqual(ready.properties, {
        bucket_name: 'gcs-calls',
        s3_key: key,
        duration: ready.properties.duration,
        storage_provider: 'gcs',
        storage_uri: `gs://gcs-calls/${key}`,
      });
      assert.equal(callSeconds, SECONDS);
      assert.equal(ready.properties.duration, callSeconds);
      const stored = gcs.objects.get(`gcs-calls/${key}`);
      assert.ok(stored);
      assert.equal(stored.contentType, 'audio/wav');
      assert.equal((stored.body.length - 44) / 2 / 16_000, ready.properties.duration);
    });

    it('sends recording_copy_failed once, after the retries, when the destination refuses', async () => {
      const id = await destination({ provider: 's3', bucket_name: 'no-such-bucket', endpoint: s3.endpoint, credentials: S3_CREDENTIALS });
      const { conversationId } = await recordedCall(id, 1);
      const failed = await callbacks(conversationId, 'application.recording_copy_failed', true);
      assert.equal(failed.length, 1, 'recording_copy_failed is sent exactly once');
      assert.equal(received(conversationId, 'application.recording_ready').length, 0);
      const recording = await recordingOf(conversationId);
      assert.deepEqual(failed[0].properties, {
        recording_id: recording.recording_id,
        s3_key: `${conversationId}/${recording.recording_id}.wav`,
        duration: recording.duration,
        storage_provider: 's3',
        error_code: 'NoSuchBucket',
        error_message: failed[0].properties.error_message,
      });
      assert.match(failed[0].properties.error_message, /bucket/i);
      RecordingCopyFailedCallback.parse(failed[0]);
      assert.equal(recording.status, 'copy_failed');
      assert.equal(recording.copy_attempts, 3, 'three attempts (PALKIT_RECORDING_MAX_ATTEMPTS)');
      // The default copy stays downloadable for the recovery window.
      const link = await t.api('GET', `/v2/conversations/${conversationId}/recordings/${recording.recording_id}/link`);
      assert.equal(link.status, 200);
      assert.equal((await fetch(link.body.url)).status, 200);
    });

    it('records the conversations of a deployment whose customization asks for it', async () => {
      const id = await destination({ provider: 'gcs', bucket_name: 'gcs-calls', endpoint: gcs.endpoint, credentials: {} });
      const created = await t.api('POST', '/v2/deployments', {
        pal_id: palId,
        channel: 'embed',
        callback_url: `${receiver.url}/deployment`,
        customization: { recording: { enabled: true, destination_id: id } },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const deploymentId = created.body.deployment_id;
      assert.equal(
        (await t.api('PATCH', `/v2/deployments/${deploymentId}`, [{ op: 'replace', path: '/status', value: 'active' }])).status,
        200,
      );
      // Browsers learn that calls are recorded, not where they go.
      assert.deepEqual(
        (await t.api('GET', `/v2/deployments/${deploymentId}/init`, undefined, { key: null })).body.customization.recording,
        { enabled: true },
      );
      const foreign = await t.api(
        'POST',
        '/v2/recording-destinations',
        { provider: 'gcs', bucket_name: 'b', endpoint: gcs.endpoint, credentials: {} },
        { key: OTHER_KEY },
      );
      const refused = await t.api('PATCH', `/v2/deployments/${deploymentId}`, [
        { op: 'replace', path: '/customization/recording/destination_id', value: foreign.body.destination_id },
      ]);
      assert.equal(refused.status, 400);
      assert.match(refused.body.error, /customization\.recording\.destination_id/);
      assert.equal(
        (
          await t.api('POST', '/v2/deployments', {
            pal_id: palId,
            channel: 'embed',
            customization: { recording: { enabled: true, destination_id: 'rd_nothere' } },
          })
        ).status,
        400,
      );
      const started = await t.api('POST', `/v2/deployments/${deploymentId}/start`, {}, { key: null });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const client = await RoomClient.join(started.body.conversation_url, started.body.meeting_token);
      const joined = client.frames.find((f) => f.type === 'joined');
      assert.ok(joined?.type === 'joined' && joined.recording === true);
      await greeted(client);
      await speakToneOn(clock, client, 1);
      await t.api('POST', `/v2/conversations/${started.body.conversation_id}/end`);
      await stored(started.body.conversation_id);
      const [ready] = await callbacks(started.body.conversation_id, 'application.recording_ready');
      assert.equal(ready.properties.storage_uri, `gs://gcs-calls/${ready.properties.s3_key}`);
    });
  });

  it('lists recordings and gives a short-lived download link; credentials are never returned', async () => {
    const id = await destination({ provider: 'gcs', bucket_name: 'gcs-calls', endpoint: gcs.endpoint, credentials: {} });
    const { conversationId } = await recordedCall(id, 1);
    await callbacks(conversationId, 'application.recording_ready');
    const recording = await recordingOf(conversationId);
    assert.equal(recording.default_copy_available, true);
    assert.ok(Date.parse(recording.expires_at) - clock.now().getTime() > 29 * 86_400_000, 'kept about 30 days');

    const link = await t.api('GET', `/v2/conversations/${conversationId}/recordings/${recording.recording_id}/link`);
    assert.equal(link.status, 200);
    const download = await fetch(link.body.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'audio/wav');
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.deepEqual(bytes, gcs.objects.get(`gcs-calls/${conversationId}/${recording.recording_id}.wav`)!.body);
    const forged = link.body.url.replace(/signature=[^&]+/, 'signature=forged');
    assert.equal((await fetch(forged)).status, 403);
    assert.equal(
      (await t.api('GET', `/v2/conversations/${conversationId}/recordings`, undefined, { key: OTHER_KEY })).status,
      404,
      'another account cannot see the conversation',
    );
    await clock.advance(2100); // the service's clock passes the link's two seconds
    assert.equal((await fetch(link.body.url)).status, 410, 'the link expires (PALKIT_RECORDING_LINK_SECONDS)');

    const s3Id = await destination({
      provider: 's3',
      bucket_name: 'recordings',
      endpoint: s3.endpoint,
      credentials: { access_key_id: 'AKIDSECRET1', secret_access_key: 'very-secret-value' },
    });
    for (const r of [await t.api('GET', `/v2/recording-destinations/${s3Id}`), await t.api('GET', '/v2/recording-destinations')]) {
      assert.equal(r.status, 200);
      assert.doesNotMatch(JSON.stringify(r.body), /AKIDSECRET1|very-secret-value/);
    }
    assert.equal((await t.api('GET', `/v2/recording-destinations/${s3Id}`)).body.credentials_set, true);
    const stored = await t.service.deps.db
      .selectFrom('recording_destinations')
      .select('credentials')
      .where('destination_id', '=', s3Id)
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(stored.credentials, /very-secret-value/, 'stored encrypted');
  });

  it('prunes the default copy after the retention window: the link then answers 410', async () => {
    const id = await destination({ provider: 'gcs', bucket_name: 'gcs-calls', endpoint: gcs.endpoint, credentials: {} });
    const { conversationId } = await recordedCall(id, 1);
    await callbacks(conversationId, 'application.recording_ready');
    const recording = await recordingOf(conversationId);
    const { db } = t.service.deps;
    const prune = await db
      .selectFrom('jobs')
      .select(['job_id', 'run_at'])
      .where('kind', '=', 'recordings.prune')
      .where(sql`payload->>'recording_id'`, '=', recording.recording_id)
      .executeTakeFirstOrThrow();
    assert.ok(
      Math.abs(new Date(prune.run_at).getTime() - Date.parse(recording.expires_at)) < 1000,
      'the prune job runs when the recording expires',
    );
    const link = await t.api('GET', `/v2/conversations/${conversationId}/recordings/${recording.recording_id}/link`);
    // Thirty days later (the job made due now).
    await db.updateTable('jobs').set({ run_at: clock.now() }).where('job_id', '=', prune.job_id).execute();
    await t.service.deps.jobs.drain(0);
    assert.equal((await recordingOf(conversationId)).default_copy_available, false);
    assert.equal((await fetch(link.body.url)).status, 410);
    assert.equal((await t.api('GET', `/v2/conversations/${conversationId}/recordings/${recording.recording_id}/link`)).status, 410);
    assert.ok(gcs.objects.has(`gcs-calls/${conversationId}/${recording.recording_id}.wav`), "the delivered copy is the customer's to keep");
  });

  it('documents destinations, recordings and download links in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    for (const path of [
      '/v2/recording-destinations',
      '/v2/recording-destinations/{destination_id}',
      '/v2/conversations/{conversation_id}/recordings',
      '/v2/conversations/{conversation_id}/recordings/{recording_id}/link',
      '/v2/recordings/{recording_id}/download',
    ])
      assert.ok(doc.paths[path], path);
    assert.ok(doc.components.schemas.ConversationProperties.properties.enable_recording);
  });

  it('refuses an unknown destination, incomplete credentials and a destination of another account', async () => {
    const unknown = await t.api('POST', '/v2/conversations', {
      pal_id: palId,
      properties: { enable_recording: true, recording_destination_id: 'rd_nothere' },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /recording_destination_id/);
    const incomplete = await t.api('POST', '/v2/recording-destinations', {
      provider: 's3',
      bucket_name: 'b',
      credentials: { access_key_id: 'x' },
    });
    assert.equal(incomplete.status, 400);
    assert.match(incomplete.body.error, /secret_access_key/);
    const theirs = await t.api(
      'POST',
      '/v2/recording-destinations',
      { provider: 'gcs', bucket_name: 'b', endpoint: gcs.endpoint, credentials: {} },
      { key: OTHER_KEY },
    );
    const mine = await t.api('POST', '/v2/conversations', {
      pal_id: palId,
      properties: { enable_recording: true, recording_destination_id: theirs.body.destination_id },
    });
    assert.equal(mine.status, 400);
    assert.equal((await t.api('GET', `/v2/recording-destinations/${theirs.body.destination_id}`)).status, 403);
  });
});

describe("recordings: the operator's S3-compatible default storage", () => {
  it("keeps a recording without a destination in the operator's bucket and serves it through the link", async () => {
    const s3 = await startS3rver(['palkit-default']);
    const clock = new ManualClock();
    const t = await startListeningService(
      {
        PALKIT_RECORDING_S3_BUCKET: 'palkit-default',
        PALKIT_RECORDING_S3_ENDPOINT: s3.endpoint,
        PALKIT_RECORDING_S3_ACCESS_KEY_ID: 'S3RVER',
        PALKIT_RECORDING_S3_SECRET_ACCESS_KEY: 'S3RVER',
        PALKIT_PAL_WORDS_PER_MINUTE: '6000',
      },
      { clock },
    );
    try {
      const pal = await t.api('POST', '/v2/pals', {
        pal_name: 'Recorder',
        system_prompt: 'Echo',
        pipeline_mode: 'echo',
        default_face_id: 'rpalkitada',
      });
      const conv = await t.api('POST', '/v2/conversations', { pal_id: pal.body.pal_id, properties: { enable_recording: true } });
      const client = await RoomClient.join(conv.body.conversation_url, conv.body.meeting_token);
      await greeted(client);
      await speakToneOn(clock, client, 2);
      await t.api('POST', `/v2/conversations/${conv.body.conversation_id}/end`);
      await client.closed;
      const recording = await waitFor(
        async () => {
          const first = (await t.api('GET', `/v2/conversations/${conv.body.conversation_id}/recordings`)).body.data[0];
          return first?.status === 'stored' ? first : undefined;
        },
        { timeout: 10_000, interval: 100, what: 'the recording to be stored' },
      );
      assert.equal(recording.status, 'stored', 'no destination: kept in the default storage only');
      assert.equal(recording.duration, 2, "the 2 s call (on the service's clock), all of it");
      const client3 = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const object = await client3.send(
        new GetObjectCommand({ Bucket: 'palkit-default', Key: `1/${conv.body.conversation_id}/${recording.recording_id}.wav` }),
      );
      const stored = Buffer.from(await object.Body!.transformToByteArray());
      client3.destroy();
      const link = await t.api('GET', `/v2/conversations/${conv.body.conversation_id}/recordings/${recording.recording_id}/link`);
      assert.deepEqual(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()), stored);
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
