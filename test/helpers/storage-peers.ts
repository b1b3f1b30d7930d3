// Real local storage peers for recording deliveries: s3rver (S3 API), Azurite's blob service (started
// as a child process) and a small fake of the Google Cloud Storage JSON API (the multipart upload the
// official client sends, and object reads), which can hold or refuse uploads.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CRC32C } from '@google-cloud/storage';
import S3rver from 's3rver';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const S3_CREDENTIALS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' };
/** Azurite's well-known development account. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface Peer {
  endpoint: string;
  close(): Promise<void>;
}

export async function startS3rver(buckets: string[]): Promise<Peer> {
  const directory = mkdtempSync(join(tmpdir(), 'palkit-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Azurite's blob service on a free port of `host`; `endpoint` is the account's blob service URL. */
export async function startAzurite(host = '127.0.0.1'): Promise<Peer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'node_modules/azurite/dist/src/blob/main.js'),
      '--blobHost',
      host,
      '--blobPort',
      '0',
      '--inMemoryPersistence',
      '--skipApiVersionCheck',
      '--disableTelemetry',
      '--loose',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Azurite did not start:\n${output}`)), 30_000);
    const read = (d: Buffer) => {
      output += d.toString();
      const m = /listens on http:\/\/[\d.]+:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`Azurite exited with ${code}:\n${output}`)));
  });
  return {
    endpoint: `http://${host}:${port}/${AZURITE_ACCOUNT}`,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface FakeGcs extends Peer {
  /** Stored objects by `bucket/name`. */
  objects: Map<string, { body: Buffer; contentType: string }>;
  uploads: number;
  /** 'hold' leaves the next upload unanswered (the caller dies waiting); 'refuse' answers 403. */
  mode: 'ok' | 'hold' | 'refuse';
}

export async function startFakeGcs(): Promise<FakeGcs> {
  const state = { objects: new Map(), uploads: 0, mode: 'ok' } as FakeGcs;
  const held: Array<import('node:http').ServerResponse> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://gcs');
      const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
      if (req.method === 'POST' && upload && url.searchParams.get('uploadType') === 'multipart') {
        state.uploads++;
        if (state.mode === 'hold') {
          state.mode = 'ok';
          held.push(res);
          return;
        }
        if (state.mode === 'refuse')
          return void res.writeHead(403, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              error: { code: 403, message: 'The caller does not have storage.objects.create access', errors: [{ reason: 'forbidden' }] },
            }),
          );
        const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1];
        if (!boundary) return void res.writeHead(400).end();
        const parts = Buffer.concat(chunks).toString('latin1').split(`--${boundary}`).slice(1, -1);
        const part = (i: number) => {
          const p = parts[i] ?? '';
          const split = p.indexOf('\r\n\r\n');
          return { head: p.slice(0, split), body: Buffer.from(p.slice(split + 4, -2), 'latin1') };
        };
        const metadata = JSON.parse(part(0).body.toString('utf8')) as { contentType?: string; name?: string };
        const media = part(1);
        const bucket = decodeURIComponent(upload[1]!);
        const name = metadata.name ?? url.searchParams.get('name') ?? '';
        const contentType = metadata.contentType ?? /content-type:\s*(.+)/i.exec(media.head)?.[1]?.trim() ?? 'application/octet-stream';
        state.objects.set(`${bucket}/${name}`, { body: media.body, contentType });
        const crc = new CRC32C();
        crc.update(media.body);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            kind: 'storage#object',
            bucket,
            name,
            contentType,
            size: String(media.body.length),
            md5Hash: createHash('md5').update(media.body).digest('base64'),
            crc32c: crc.toString(),
          }),
        );
      }
      const read = /^\/(?:download\/)?storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
      if (req.method === 'GET' && read) {
        const object = state.objects.get(`${decodeURIComponent(read[1]!)}/${decodeURIComponent(read[2]!)}`);
        if (!object)
          return void res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { code: 404, message: 'No such object' } }));
        if (url.searchParams.get('alt') === 'media')
          return void res.writeHead(200, { 'content-type': object.contentType }).end(object.body);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            bucket: read[1],
            name: decodeURIComponent(read[2]!),
            size: String(object.body.length),
            contentType: object.contentType,
          }),
        );
      }
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 404, message: 'not implemented by the fake' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
