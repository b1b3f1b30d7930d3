// Recordings across a crash (kill -9 of a service process): a copy interrupted in flight is made again and
// delivered once, and a call whose service died mid-call keeps what was on disk. Real time: the service runs
// in processes of its own (its clock cannot be the test's), the visitor speaks in real time, and the call's
// length is bounded by a stopwatch. Moved unchanged from test/server/resources/recordings/recordings.test.ts,
// which runs on the test's clock.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RoomClient } from '../helpers/live-fixtures.js';
import { startReceiver } from '../helpers/receiver.js';
import { startFakeGcs } from '../helpers/storage-peers.js';
import { assertCallLength, speakTone, stopwatch } from '../helpers/recorded-call.js';
import { startServiceProcess } from '../helpers/process.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * A service in a process of its own, on a data folder of its own, with a GCS peer and a callback receiver;
 * `restart()` starts it again on the same data after a kill, and `createCall()` makes an echo PAL's
 * recorded conversation with a destination in `bucket`.
 */
async function crashWorld(name: string) {
  const data = mkdtempSync(join(tmpdir(), `palkit-recordings-${name}-`));
  const gcs = await startFakeGcs();
  const receiver = await startReceiver();
  const env = {
    PALKIT_DATA: data,
    PALKIT_API_KEYS: 'crash-key:1',
    PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
    PALKIT_JOB_LEASE_SECONDS: '2',
    PALKIT_RECORDING_RETRY_MS: '100',
    PALKIT_PAL_WORDS_PER_MINUTE: '6000',
    PALKIT_ROOM_POLL_MS: '200',
  };
  const world = {
    data,
    gcs,
    receiver,
    service: await startServiceProcess(env),
    async restart(): Promise<void> {
      world.service = await startServiceProcess(env);
    },
    async api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
      const r = await fetch(world.service.url + path, {
        method,
        headers: { 'x-api-key': 'crash-key', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: r.status, body: (await r.json()) as any };
    },
    async createCall(bucket: string, properties: Record<string, unknown> = {}) {
      const pal = await world.api('POST', '/v2/pals', {
        pal_name: 'Recorder',
        system_prompt: 'Echo',
        pipeline_mode: 'echo',
        default_face_id: 'rpalkitada',
      });
      const dest = await world.api('POST', '/v2/recording-destinations', {
        provider: 'gcs',
        bucket_name: bucket,
        endpoint: gcs.endpoint,
        credentials: {},
      });
      return world.api('POST', '/v2/conversations', {
        pal_id: pal.body.pal_id,
        callback_url: `${receiver.url}/calls`,
        properties: { enable_recording: true, recording_destination_id: dest.body.destination_id, ...properties },
      });
    },
    async close(): Promise<void> {
      await world.service.kill();
      await receiver.close();
      await gcs.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
  return world;
}

describe('recordings: a crash mid-copy', () => {
  it('delivers once after kill -9 while the upload is in flight', async () => {
    const world = await crashWorld('crash');
    const { gcs, receiver, api } = world;
    try {
      const conv = await world.createCall('crash');
      assert.equal(conv.status, 200, JSON.stringify(conv.body));
      const conversationId: string = conv.body.conversation_id;
      gcs.mode = 'hold'; // the first upload never gets an answer
      const call = stopwatch();
      const client = await RoomClient.join(conv.body.conversation_url, conv.body.meeting_token, 'Visitor');
      await speakTone(client, 2);
      assert.equal((await api('POST', `/v2/conversations/${conversationId}/end`)).status, 200);
      const callSeconds = call();
      await client.closed;
      await waitFor(() => gcs.uploads > 0, { timeout: 20_000, interval: 50 });
      assert.equal(gcs.uploads, 1, 'the copy started');
      await world.service.kill();

      await world.restart();
      const ready = async () =>
        receiver.received
          .map((r) => r.body)
          .flat()
          .filter((b: any) => b?.conversation_id === conversationId && b.event_type === 'application.recording_ready');
      await waitFor(async () => (await ready()).length > 0, { timeout: 30_000, interval: 100 });
      // Every delivery the service recorded for the call delivered and the recording settled: a second run of
      // the copy would have recorded (and sent) a second recording_ready before this holds.
      await waitFor(
        async () => {
          const deliveries = (await api('GET', '/v2/webhooks/deliveries')).body.data.filter(
            (d: any) => d.payload.conversation_id === conversationId,
          );
          const settledCopy = (await api('GET', `/v2/conversations/${conversationId}/recordings`)).body.data[0]?.status === 'delivered';
          return (
            settledCopy &&
            deliveries.length > 0 &&
            deliveries.every((d: any) => d.status === 'delivered') &&
            (await ready()).length >= deliveries.filter((d: any) => d.event_type === 'application.recording_ready').length
          );
        },
        { timeout: 30_000, interval: 100, what: 'the recording and its callbacks to settle' },
      );
      const sent = await ready();
      assert.equal(sent.length, 1, 'recording_ready is sent exactly once');
      assert.equal(gcs.uploads, 2, 'the interrupted upload was made again, once');
      const list = await api('GET', `/v2/conversations/${conversationId}/recordings`);
      assert.equal(list.body.data[0].status, 'delivered');
      const key = `${conversationId}/${list.body.data[0].recording_id}.wav`;
      assert.equal(sent[0].properties.s3_key, key);
      assert.ok(gcs.objects.has(`crash/${key}`));
      assertCallLength(sent[0].properties.duration, 2, callSeconds);
    } finally {
      await world.close();
    }
  });

  it('keeps what was recorded when the service dies mid-call, once the conversation ends', async () => {
    const world = await crashWorld('midcall');
    const { data, gcs, receiver } = world;
    try {
      const conv = await world.createCall('midcall', { participant_left_timeout: 0 });
      const conversationId: string = conv.body.conversation_id;
      const client = await RoomClient.join(conv.body.conversation_url, conv.body.meeting_token, 'Visitor');
      await speakTone(client, 2);
      // The recorder appends to disk every second: wait until the tone is on disk, then crash.
      const onDisk = () => {
        const live = join(data, 'recordings', 'live');
        return existsSync(live) ? readdirSync(live).reduce((sum, f) => sum + statSync(join(live, f)).size, 0) / 2 / 16_000 : 0;
      };
      await waitFor(() => onDisk() >= 2, { timeout: 20_000, interval: 50 });
      await world.service.kill();
      client.socket.terminate();
      const keptBeforeCrash = onDisk();
      assert.ok(keptBeforeCrash >= 2, `${keptBeforeCrash} s were on disk before the crash`);

      await world.restart(); // its sweep ends the orphaned conversation (the visitor left)
      const ready = () =>
        receiver.received
          .map((r) => r.body)
          .flat()
          .filter((b: any) => b?.conversation_id === conversationId && b.event_type === 'application.recording_ready');
      await waitFor(() => ready().length > 0, { timeout: 30_000, interval: 100 });
      assert.equal(ready().length, 1, 'the recording made before the crash is delivered');
      const duration = ready()[0].properties.duration;
      assert.ok(
        duration >= keptBeforeCrash && duration <= keptBeforeCrash + 2,
        `kept ${duration} s of the ${keptBeforeCrash} s on disk before the crash`,
      );
      assert.ok(gcs.objects.has(`midcall/${ready()[0].properties.s3_key}`));
    } finally {
      await world.close();
    }
  });
});
