// Recording copies under the outbound address policy and against hostile destinations: the service may
// reach 127.0.0.1 only (where the callback receiver is); storage peers on 127.0.0.2 are private and
// refused. An Azure connection string naming such an endpoint is refused like any endpoint, a refused
// copy settles once as `recording_copy_failed`, an error body is read to a small cap whatever the
// provider, and one owner's destination that never answers leaves the job slots other owners'
// callbacks need.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { KEY, OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { RoomClient } from '../../../helpers/live-fixtures.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { AZURITE_ACCOUNT, AZURITE_KEY, S3_CREDENTIALS, startAzurite, type Peer } from '../../../helpers/storage-peers.js';
import { speakTone } from '../../../helpers/recorded-call.js';
import { waitFor } from '../../../helpers/wait-for.js';

const PRIVATE_HOST = '127.0.0.2'; // loopback, but outside PALKIT_OUTBOUND_ALLOW here

/** Answers every request, once its body is read, with 500 and a chunked body of `totalBytes`; counts what it could write. */
async function startBigErrorServer(
  totalBytes: number,
): Promise<{ url: string; written: () => number; requests: () => number; close(): Promise<void> }> {
  let written = 0;
  let requests = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server: Server = createHttpServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/xml' });
      let sent = 0;
      const pump = () => {
        while (sent < totalBytes && !res.destroyed) {
          sent += chunk.length;
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written: () => written,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Accepts connections, reads what they send and never answers. */
async function startSilentServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('recording copies under the outbound policy', () => {
  let t: TestService;
  let receiver: Receiver;
  let azure: Peer;
  const pals = new Map<string, string>();
  const dir = mkdtempSync(join(tmpdir(), 'palkit-recording-outbound-'));

  before(async () => {
    azure = await startAzurite(PRIVATE_HOST);
    await new BlobServiceClient(azure.endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY))
      .getContainerClient('calls')
      .create();
    receiver = await startReceiver();
    t = await startListeningService({
      PALKIT_OUTBOUND_ALLOW: '127.0.0.1/32',
      PALKIT_RECORDING_DIR: dir,
      PALKIT_RECORDING_RETRY_MS: '100',
      PALKIT_RECORDING_MAX_ATTEMPTS: '2',
      // Long enough that a silent destination holds its slot for the whole test: what is measured is the slots.
      PALKIT_RECORDING_IDLE_MS: '60000',
      PALKIT_RECORDING_COPY_TIMEOUT_MS: '60000',
      PALKIT_PAL_WORDS_PER_MINUTE: '6000',
      PALKIT_ROOM_POLL_MS: '200',
    });
    for (const key of [KEY, OTHER_KEY]) {
      const pal = await t.api(
        'POST',
        '/v2/pals',
        { pal_name: 'Recorder', system_prompt: 'Echo', pipeline_mode: 'echo', default_face_id: 'rpalkitada' },
        { key },
      );
      assert.equal(pal.status, 200, JSON.stringify(pal.body));
      pals.set(key, pal.body.pal_id);
    }
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await azure?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function destination(body: Record<string, unknown>, key = KEY): Promise<string> {
    const r = await t.api('POST', '/v2/recording-destinations', body, { key });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.destination_id;
  }

  /** A recorded call of one second; resolves when the conversation has ended. */
  async function recordedCall(destinationId: string, key = KEY): Promise<string> {
    const created = await t.api(
      'POST',
      '/v2/conversations',
      {
        pal_id: pals.get(key),
        callback_url: `${receiver.url}/calls`,
        properties: { enable_recording: true, recording_destination_id: destinationId },
      },
      { key },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const client = await RoomClient.join(created.body.conversation_url, created.body.meeting_token, 'Visitor');
    await speakTone(client, 1);
    assert.equal((await t.api('POST', `/v2/conversations/${created.body.conversation_id}/end`, undefined, { key })).status, 200);
    await client.closed;
    return created.body.conversation_id;
  }

  const received = (conversationId: string, eventType: string): any[] =>
    receiver.received
      .map((r) => r.body)
      .flat()
      .filter((b: any) => b?.conversation_id === conversationId && b.event_type === eventType);

  /** The copy's outcome: waits for a settling callback, then for every job due to have run (to see any second one). */
  async function settled(conversationId: string, timeoutMs = 20_000) {
    const any = () => [
      ...received(conversationId, 'application.recording_copy_failed'),
      ...received(conversationId, 'application.recording_ready'),
    ];
    await waitFor(() => any().length > 0, { timeout: timeoutMs, interval: 100 });
    await t.service.deps.jobs.drain();
    const recording = (await t.api('GET', `/v2/conversations/${conversationId}/recordings`)).body.data[0];
    return {
      failed: received(conversationId, 'application.recording_copy_failed'),
      ready: received(conversationId, 'application.recording_ready'),
      recording,
    };
  }

  // One-second calls whose copies each end on their own (refused or capped): side by side. The slot test
  // after them needs every slot free when it starts, so it runs alone.
  describe('copies refused or capped, side by side', { concurrency: true }, () => {
    it('refuses an Azure connection string whose endpoint the policy forbids, and settles the copy once', async () => {
      const connection = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};BlobEndpoint=${azure.endpoint};`;
      const id = await destination({ provider: 'azure_blob', bucket_name: 'calls', credentials: { connection_string: connection } });
      const conversationId = await recordedCall(id);
      const { failed, ready, recording } = await settled(conversationId);
      assert.equal(ready.length, 0, 'nothing is delivered to a private address');
      assert.equal(failed.length, 1, 'recording_copy_failed is sent once');
      assert.equal(failed[0].properties.error_code, 'outbound_blocked');
      assert.equal(recording.status, 'copy_failed');
      assert.equal(recording.copy_attempts, 1, 'a refusal by the policy is final at once');
      const blobs = [];
      for await (const blob of new BlobServiceClient(azure.endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY))
        .getContainerClient('calls')
        .listBlobsFlat())
        blobs.push(blob.name);
      assert.deepEqual(blobs, [], 'Azurite received nothing');
    });

    it('settles a copy refused by the policy once, within the maximum attempts (S3 and GCS endpoints)', async () => {
      await Promise.all(
        [
          { provider: 's3', bucket_name: 'recordings', endpoint: `http://${PRIVATE_HOST}:9`, credentials: S3_CREDENTIALS },
          { provider: 'gcs', bucket_name: 'calls', endpoint: `http://${PRIVATE_HOST}:9`, credentials: {} },
        ].map(async (body) => {
          const conversationId = await recordedCall(await destination(body));
          const { failed, ready, recording } = await settled(conversationId);
          assert.equal(ready.length, 0);
          assert.equal(failed.length, 1, `${body.provider}: recording_copy_failed is sent once`);
          assert.match(failed[0].properties.error_code, /blocked/);
          assert.equal(recording.status, 'copy_failed');
          assert.ok(recording.copy_attempts <= 2, `${body.provider}: ${recording.copy_attempts} attempts, the maximum is 2`);
        }),
      );
    });

    it("refuses an Azure account name that would change the endpoint's host", async () => {
      const r = await t.api('POST', '/v2/recording-destinations', {
        provider: 'azure_blob',
        bucket_name: 'calls',
        credentials: { account_name: `x@${PRIVATE_HOST}:80/a`, account_key: AZURITE_KEY },
      });
      assert.equal(r.status, 400);
      assert.match(r.body.error, /account_name/);
    });

    it("reads a destination's 200 MB error body to a small cap, whatever the provider", async (ctx) => {
      await Promise.all(
        (['s3', 'azure_blob', 'gcs'] as const).map(async (provider) => {
          const big = await startBigErrorServer(200 * 1024 * 1024);
          try {
            const credentials =
              provider === 's3'
                ? S3_CREDENTIALS
                : provider === 'azure_blob'
                  ? { account_name: AZURITE_ACCOUNT, account_key: AZURITE_KEY }
                  : {};
            const conversationId = await recordedCall(
              await destination({ provider, bucket_name: 'calls', endpoint: big.url, credentials }),
            );
            const { failed, recording } = await settled(conversationId, 60_000);
            assert.equal(failed.length, 1, `${provider}: the copy fails once`);
            assert.equal(recording.status, 'copy_failed');
            ctx.diagnostic(
              `${provider}: ${big.requests()} requests, ${(big.written() / 1048576).toFixed(1)} MiB written of 200, error ${failed[0].properties.error_code}`,
            );
            // 2 attempts at most; kernel buffers hold a few MiB each beyond what the service read.
            assert.ok(big.written() < 32 * 1024 * 1024, `${provider}: ${big.written()} bytes of the error body were taken`);
          } finally {
            await big.close();
          }
        }),
      );
    });
  });

  it("keeps a slot for another owner's callbacks while one owner's destination never answers", async (ctx) => {
    const silent = await startSilentServer();
    try {
      const id = await destination({ provider: 's3', bucket_name: 'recordings', endpoint: silent.url, credentials: S3_CREDENTIALS });
      // More stalled copies than the queue has slots (4).
      const stalled = await Promise.all([1, 2, 3, 4, 5].map(() => recordedCall(id)));
      await waitFor(() => silent.connections() > 0, { timeout: 10_000, interval: 50 });
      assert.ok(silent.connections() > 0, 'the stalled copies started');
      // Every copy that can be claimed is claimed by now: three claim passes (each enqueue starts one) have run
      // since, and each takes the earliest claimable job first — a queued copy before a marker.
      let markers = 0;
      t.service.deps.jobs.register('test.marker', async () => void markers++);
      for (let i = 1; i <= 3; i++) {
        await t.service.deps.jobs.enqueue('test.marker', {});
        await waitFor(() => markers === i, { timeout: 10_000, interval: 20, what: `claim pass ${i}` });
      }

      const created = await t.api(
        'POST',
        '/v2/conversations',
        { pal_id: pals.get(OTHER_KEY), callback_url: `${receiver.url}/other` },
        { key: OTHER_KEY },
      );
      assert.equal(created.status, 200);
      const client = await RoomClient.join(created.body.conversation_url, created.body.meeting_token, 'Visitor');
      const theirs = () => receiver.received.filter((r) => r.path === '/other');
      // Waits for a state, not a time: without a free slot the callback never comes and the wait fails.
      await waitFor(() => theirs().length > 0, {
        timeout: 15_000,
        interval: 50,
        what: "another owner's callback while the stalled copies hold their connections",
      });
      ctx.diagnostic(`another owner's first callback arrived, ${silent.connections()} stalled connection(s) held`);
      assert.ok(theirs().length > 0, "another owner's callback arrives while the stalled copies hold their connections");
      assert.ok(silent.connections() <= 1, `one stalled copy per owner at a time (${silent.connections()} connections)`);
      client.socket.close();
      assert.equal(stalled.length, 5);
    } finally {
      await silent.close();
    }
  });
});
