// Helpers for the video and speech tests: faces inserted straight into the table (with real fixture
// media stored through the service's media store), a loopback callback receiver, polling, and signature checks.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newId } from '../../src/server/platform/ids.js';
import { verifiedWebhook } from './webhook-verify.js';
import type { TestService } from './service.js';
import { mediaFixture } from './media-fixtures.js';
import { waitFor as waitForValue } from './wait-for.js';

export const sampleFaceJpg = () => readFileSync(mediaFixture('sample-face.jpg'));
export const sampleFaceMp4 = () => readFileSync(mediaFixture('sample-face.mp4'));

export async function insertFace(
  t: TestService,
  ownerId: number,
  options: { image?: boolean; video?: boolean; status?: string } = {},
): Promise<string> {
  const { db, media } = t.service.deps;
  const image =
    options.image === false
      ? null
      : (await media.store(db, { ownerId, contentType: 'image/jpeg', extension: 'jpg', bytes: sampleFaceJpg() })).url;
  const video =
    options.video === false
      ? null
      : (await media.store(db, { ownerId, contentType: 'video/mp4', extension: 'mp4', bytes: sampleFaceMp4() })).url;
  const faceId = newId('r', 14);
  await db
    .insertInto('faces')
    .values({
      face_id: faceId,
      owner_id: ownerId,
      face_name: 'Test face',
      train_video_url: null,
      callback_url: null,
      status: options.status ?? 'completed',
      error_message: null,
      thumbnail_image_url: image,
      thumbnail_video_url: video,
      model_name: 'local',
    })
    .execute();
  return faceId;
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A loopback HTTP server: records POSTs, and serves `files` on GET (path → [content type, bytes]). */
export async function startReceiver(files: Record<string, [string, Uint8Array]> = {}) {
  const received: Received[] = [];
  /** Every GET's path, served or not. */
  const fetched: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method === 'GET') {
        fetched.push(path);
        const file = files[path];
        if (!file) return res.writeHead(404).end('missing');
        return res.writeHead(200, { 'content-type': file[0] }).end(Buffer.from(file[1]));
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path, headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    fetched,
    /** Resolves with the first callback on `path` (waits for it). */
    async next(path: string, timeoutMs = 20_000): Promise<Received> {
      return waitFor(async () => received.find((r) => r.path === path), timeoutMs, `callback on ${path}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** test/helpers/wait-for.ts's waitFor, in this file's older argument order. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  return (await waitForValue(probe, { timeout: timeoutMs, interval: 100, what })) as T;
}

/** Polls a GET until the item's status leaves `generating`. */
export async function waitForFinished(t: TestService, path: string, key?: string): Promise<any> {
  return waitFor(
    async () => {
      const r = await t.api('GET', path, undefined, key ? { key } : {});
      return r.status === 200 && r.body.status !== 'generating' ? r.body : undefined;
    },
    60_000,
    `${path} to finish`,
  );
}

export async function signatureIsValid(t: TestService, callback: Received, key?: string): Promise<boolean> {
  const { secret } = (await t.api('GET', '/v2/webhooks/secret', undefined, key ? { key } : {})).body;
  return verifiedWebhook(secret, callback.headers, callback.raw);
}

export async function fetchBytes(url: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const r = await fetch(url);
  return { status: r.status, contentType: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}
