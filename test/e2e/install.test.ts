// The installable service: `npm pack --workspaces`, the @palkit/server tarball installed into an empty
// folder, then the `palkit` command from there (compiled, plain node, no TypeScript tooling): serve answers /healthz, /readyz,
// /palkit.js and /openapi.json, reads a document on its extraction worker; SIGTERM with a live room closes the room socket with 1012 (service
// restarting) and exits 0 within 10 s; `keys create` and `migrate` work. Needs `npm run build` first. The service
// needs none of its workspace siblings at run time (it bundles the protocol and carries the built script tag).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RoomClient } from '../helpers/live-fixtures.js';
import { startFileServer, waitUntil } from '../helpers/loopback.js';
import { cleanEnv, installInto, installedPackages, npx, packWorkspaces, repoRoot as root, run } from '../../scripts/packing.js';
import { freePort } from '../helpers/process.js';

const KEY = 'install-key-owner-1';

describe('installed service (npm pack --workspaces → npm install @palkit/server → npx palkit)', { timeout: 420_000 }, () => {
  let work: string;
  let app: string;

  before(() => {
    for (const built of ['src/server/dist/cli.js', 'src/server/dist/cdn/palkit.js']) {
      assert.ok(existsSync(join(root, built)), `${built} is missing: run \`npm run build\` before the e2e tests`);
    }
    work = mkdtempSync(join(tmpdir(), 'palkit-install-'));
    app = join(work, 'app');
    installInto(app, [packWorkspaces(work).get('@palkit/server')!]);
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships the compiled service and the command, and no TypeScript tooling is installed', () => {
    const pkg = join(app, 'node_modules', '@palkit', 'server');
    assert.ok(existsSync(join(pkg, 'dist/cli.js')));
    assert.match(readFileSync(join(pkg, 'dist/cli.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
    for (const file of ['dist/cdn/palkit.js', 'dist/cdn/palkit-full.js', 'dist/palkit-espeak.c', 'dist/extract-worker.js', 'dist/espeak-worker.js']) assert.ok(existsSync(join(pkg, file)), `${file} ships`);
    // The browser side stays out of the service's install.
    for (const name of ['palkit', 'lit', '@lit/react', '@daily-co/daily-js']) assert.ok(!installedPackages(app).includes(name), `${name} is not installed`);
    assert.ok(existsSync(join(app, 'node_modules/.bin/palkit')));
    assert.ok(!existsSync(join(pkg, 'src')), 'no sources in the package');
    for (const tool of ['tsx', 'typescript', 'vite']) assert.ok(!existsSync(join(app, 'node_modules', tool)), `${tool} must not be needed`);
  });

  it('`npx palkit keys create --owner 3` prints a key; `npx palkit migrate` exits 0', () => {
    const keys = run(npx, ['palkit', 'keys', 'create', '--owner', '3'], app, { PALKIT_DATA: 'memory', PALKIT_LOG: 'error' });
    assert.equal(keys.status, 0, keys.stderr);
    assert.match(keys.stdout.trim(), /^\S{20,}$/);
    const data = join(work, 'data');
    const migrated = run(npx, ['palkit', 'migrate'], app, { PALKIT_DATA: data });
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.ok(existsSync(data), 'the embedded database was created');
    const usage = run(npx, ['palkit', 'nonsense'], app);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /usage: palkit/);
  });

  it('`npx palkit serve` answers /healthz, /readyz, /palkit.js, /openapi.json and drains a live room on SIGTERM', async () => {
    const port = await freePort();
    const url = `http://localhost:${port}`;
    let output = '';
    const child: ChildProcess = spawn(npx, ['palkit', 'serve', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: app,
      env: cleanEnv({ PALKIT_DATA: 'memory', PALKIT_API_KEYS: `${KEY}:1`, PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128', PALKIT_LOG: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const files = await startFileServer({
      '/face.mp4': { body: readFileSync(join(root, 'demo/media/sample-face.mp4')), contentType: 'video/mp4' },
      '/page.html': { body: Buffer.from('<html><body><nav>menu</nav><main><h1>Opening hours</h1><p>We open at nine.</p></main></body></html>'), contentType: 'text/html' },
    });
    let room: RoomClient | undefined;
    try {
      await waitUntil(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true, 60_000, `the service to answer:\n${output}`);
      for (const path of ['/healthz', '/readyz', '/palkit.js', '/openapi.json']) {
        const r = await fetch(url + path);
        assert.equal(r.status, 200, `${path}: ${r.status}`);
        if (path === '/palkit.js') assert.match(r.headers.get('content-type') ?? '', /javascript/);
        if (path === '/openapi.json') assert.equal(((await r.json()) as { openapi: string }).openapi, '3.1.0');
        else await r.arrayBuffer();
      }
      const metrics = await (await fetch(`${url}/metrics`)).text();
      assert.match(metrics, /^palkit_http_request_duration_seconds_bucket\{/m);

      // A live local room: a trained face, an echo PAL, a conversation, a visitor on the socket.
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(url + path, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: r.status, body: (await r.json()) as any };
      };
      // A document is read on the compiled extraction worker (@palkit/server's dist/extract-worker.js).
      const document = await api('POST', '/v2/documents', { document_url: `${files.url}/page.html` });
      assert.equal(document.status, 200, JSON.stringify(document.body));
      let read: any;
      await waitUntil(async () => ['ready', 'error'].includes((read = (await api('GET', `/v2/documents/${document.body.document_id}`)).body).status), 60_000, 'the document to be read');
      assert.equal(read.status, 'ready', `${read.error_message}\n${output}`);

      const face = await api('POST', '/v2/faces', { face_name: 'Install face', train_video_url: `${files.url}/face.mp4` });
      assert.equal(face.status, 200, JSON.stringify(face.body));
      let faceStatus = 'training';
      await waitUntil(async () => (faceStatus = (await api('GET', `/v2/faces/${face.body.face_id}`)).body.status) !== 'training', 60_000, 'face training');
      assert.equal(faceStatus, 'completed');
      const pal = await api('POST', '/v2/pals', { pal_name: 'Install PAL', system_prompt: 'Repeat.', pipeline_mode: 'echo', default_face_id: face.body.face_id });
      assert.equal(pal.status, 200, JSON.stringify(pal.body));
      const conversation = await api('POST', '/v2/conversations', { pal_id: pal.body.pal_id });
      assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
      assert.equal(conversation.body.conversation_url, `${url}/rooms/${conversation.body.conversation_id}`);
      room = await RoomClient.join(conversation.body.conversation_url, conversation.body.meeting_token, 'Visitor');

      // SIGTERM to the service itself (npx runs it under a shell that does not pass signals on).
      const listening = output.split('\n').map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return undefined; } }).find((e) => e?.msg === 'palkit service listening');
      assert.ok(listening && typeof listening.pid === 'number', `a JSON "listening" line with the pid:\n${output}`);
      const signalled = Date.now();
      process.kill(listening.pid as number, 'SIGTERM');
      const closed = await Promise.race([room.closed, new Promise<undefined>((r) => setTimeout(r, 10_000))]);
      assert.deepEqual(closed, { code: 1012, reason: 'service restarting' });
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000 - (Date.now() - signalled)))]);
      assert.equal(code, 0, `exit within 10 s with 0:\n${output}`);
      assert.ok(Date.now() - signalled < 10_000);
      assert.match(output, /"msg":"draining"/);
      assert.match(output, /"msg":"stopped"/);
    } finally {
      room?.close();
      await files.close();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        const pid = /"pid":(\d+)/.exec(output)?.[1];
        if (pid) try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
      }
    }
  });
});
