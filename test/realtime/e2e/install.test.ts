// The installable service: `npm pack --workspaces`, the @palkit/server tarball installed into an empty
// folder, then the `palkit` command from there (compiled, plain node, no TypeScript tooling): serve answers /healthz, /readyz,
// /palkit.js and /openapi.json, reads a document on its extraction worker; SIGTERM with a live room closes the room socket with 1012 (service
// restarting) and exits 0 within 10 s; `keys create` and `migrate` work. Packed from a private copy (nothing needs building first). The service
// needs none of its workspace siblings at run time (it bundles the protocol and carries the built script tag).
// Then the issue-24 bar: run with only `node` on PATH (no cc, espeak-ng or ffmpeg from the system), it serves,
// renders a speech item with audible audio, trains a face (ffmpeg from npm) and speaks in a local room.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AudioFrameKind } from '../../../src/protocol/room.js';
import { RoomClient } from '../../helpers/live-fixtures.js';
import { startFileServer, waitUntil } from '../../helpers/loopback.js';
import {
  cleanEnv,
  folderBytes,
  installInto,
  installedPackages,
  npx,
  packWithScripts,
  privateCheckout,
  run,
} from '../../../scripts/packing.js';
import { freePort } from '../../helpers/process.js';
import { rms, wavSamples } from '../../helpers/audio-level.js';
import { portraitClip } from '../../helpers/face-clips.js';
import { runInstalledDailyRunner } from '../../helpers/installed-daily-runner.js';

const KEY = 'install-key-owner-1';

describe('installed service (npm pack --workspaces → npm install @palkit/server → npx palkit)', { timeout: 420_000 }, () => {
  let work: string;
  let app: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'palkit-install-'));
    app = join(work, 'app');
    // Packed from a private copy of the checkout, as on a fresh clone where nothing is built: its prepack must
    // build the script tag it serves, and the build leaves this checkout's packages to the files that read them.
    installInto(app, [packWithScripts('src/server', work, privateCheckout(work))]);
    const modules = join(app, 'node_modules');
    const ffmpegBytes = existsSync(join(modules, '@ffmpeg-installer')) ? folderBytes(join(modules, '@ffmpeg-installer')) : 0;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `@palkit/server installed: ${installedPackages(app).length} packages, ${mb(folderBytes(modules))} MB (ffmpeg ${mb(ffmpegBytes)} MB)`,
    );
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships the compiled service and the command, and no TypeScript tooling is installed', () => {
    const pkg = join(app, 'node_modules', '@palkit', 'server');
    assert.ok(existsSync(join(pkg, 'dist/cli.js')));
    assert.match(readFileSync(join(pkg, 'dist/cli.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
    for (const file of [
      'PRODUCTION.md',
      'dist/cdn/palkit.js',
      'dist/cdn/palkit-full.js',
      'dist/palkit-espeak.c',
      'dist/extract-worker.js',
      'dist/espeak-worker.js',
      'dist/face-trainer.js',
      'dist/video-renderer.js',
      'dist/daily-runner.js',
      'dist/daily-runner-page.js',
    ])
      assert.ok(existsSync(join(pkg, file)), `${file} ships`);
    // The browser side stays out of the service's install.
    for (const name of ['palkit', 'lit', '@lit/react', '@daily-co/daily-js'])
      assert.ok(!installedPackages(app).includes(name), `${name} is not installed`);
    // palkit's Daily runner drives Chromium with it (its page carries daily-js, bundled).
    assert.ok(installedPackages(app).includes('playwright-core'), 'playwright-core is installed');
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
      env: cleanEnv({
        PALKIT_DATA: 'memory',
        PALKIT_API_KEYS: `${KEY}:1`,
        PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
        PALKIT_LOG: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const files = await startFileServer({
      '/face.mp4': { body: portraitClip(2), contentType: 'video/mp4' },
      '/page.html': {
        body: Buffer.from('<html><body><nav>menu</nav><main><h1>Opening hours</h1><p>We open at nine.</p></main></body></html>'),
        contentType: 'text/html',
      },
    });
    let room: RoomClient | undefined;
    try {
      await waitUntil(
        async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true,
        60_000,
        `the service to answer:\n${output}`,
      );
      for (const path of ['/healthz', '/readyz', '/palkit.js', '/openapi.json']) {
        const r = await fetch(url + path);
        assert.equal(r.status, 200, `${path}: ${r.status}`);
        if (path === '/palkit.js') assert.match(r.headers.get('content-type') ?? '', /javascript/);
        if (path === '/openapi.json') assert.equal(((await r.json()) as { openapi: string }).openapi, '3.1.0');
        else await r.arrayBuffer();
      }
      const metrics = await (await fetch(`${url}/metrics`)).text();
      assert.match(metrics, /^palkit_http_request_duration_seconds_bucket\{/m);
      // The build says what it is: the package's version and the commit it was built from, and which instance answers.
      const health = (await (await fetch(`${url}/healthz`)).json()) as { version: string; instance: string };
      assert.match(health.version, /^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
      assert.match(
        metrics,
        new RegExp(`^palkit_build_info\\{version="${health.version.replace(/[.+]/g, '\\$&')}",instance="${health.instance}"\\} 1$`, 'm'),
      );
      assert.match(
        output,
        new RegExp(
          `"msg":"palkit service listening","instance":"${health.instance}","version":"${health.version.replace(/[.+]/g, '\\$&')}"`,
        ),
      );

      // A live local room: a trained face, an echo PAL, a conversation, a visitor on the socket.
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(url + path, {
          method,
          headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: r.status, body: (await r.json()) as any };
      };
      // A document is read on the compiled extraction worker (@palkit/server's dist/extract-worker.js).
      const document = await api('POST', '/v2/documents', { document_url: `${files.url}/page.html` });
      assert.equal(document.status, 200, JSON.stringify(document.body));
      let read: any;
      await waitUntil(
        async () => ['ready', 'error'].includes((read = (await api('GET', `/v2/documents/${document.body.document_id}`)).body).status),
        60_000,
        'the document to be read',
      );
      assert.equal(read.status, 'ready', `${read.error_message}\n${output}`);

      const face = await api('POST', '/v2/faces', { face_name: 'Install face', train_video_url: `${files.url}/face.mp4` });
      assert.equal(face.status, 200, JSON.stringify(face.body));
      let faceStatus = 'training';
      await waitUntil(
        async () => (faceStatus = (await api('GET', `/v2/faces/${face.body.face_id}`)).body.status) !== 'training',
        60_000,
        'face training',
      );
      assert.equal(faceStatus, 'completed');
      const pal = await api('POST', '/v2/pals', {
        pal_name: 'Install PAL',
        system_prompt: 'Repeat.',
        pipeline_mode: 'echo',
        default_face_id: face.body.face_id,
      });
      assert.equal(pal.status, 200, JSON.stringify(pal.body));
      const conversation = await api('POST', '/v2/conversations', { pal_id: pal.body.pal_id });
      assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
      assert.equal(conversation.body.conversation_url, `${url}/rooms/${conversation.body.conversation_id}`);
      room = await RoomClient.join(conversation.body.conversation_url, conversation.body.meeting_token, 'Visitor');

      // SIGTERM to the service itself (npx runs it under a shell that does not pass signals on).
      const listening = output
        .split('\n')
        .map((l) => {
          try {
            return JSON.parse(l) as Record<string, unknown>;
          } catch {
            return undefined;
          }
        })
        .find((e) => e?.msg === 'palkit service listening');
      assert.ok(listening && typeof listening.pid === 'number', `a JSON "listening" line with the pid:\n${output}`);
      const signalled = Date.now();
      process.kill(listening.pid as number, 'SIGTERM');
      const closed = await Promise.race([room.closed, new Promise<undefined>((r) => setTimeout(r, 10_000))]);
      assert.deepEqual(closed, { code: 1012, reason: 'service restarting' });
      const code = await Promise.race([
        exited,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000 - (Date.now() - signalled))),
      ]);
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
        if (pid)
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            /* gone */
          }
      }
    }
  });

  it("runs palkit's Daily runner from the package: its page publishes the PAL's face and voice", async () => {
    const report = await runInstalledDailyRunner(app, work, KEY);
    console.log(`installed Daily runner: voice peak ${report.peak.toFixed(2)}, face ${report.width}x${report.height}`);
    assert.ok(report.peak >= 0.02, `the PAL's voice is audible: ${report.peak}`);
    assert.deepEqual([report.width, report.height], [960, 540], "Ada's face");
  });

  describe('run with only node on PATH', () => {
    let url: string;
    let child: ChildProcess;
    let output = '';
    let nodeOnly: string;
    let files: Awaited<ReturnType<typeof startFileServer>>;
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(url + path, {
        method,
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const ffmpegBinary = () => {
      const dir = join(app, 'node_modules/@ffmpeg-installer', `${process.platform}-${process.arch}`);
      return join(
        dir,
        readdirSync(dir).find((name) => /^ffmpeg(\.exe)?$/.test(name))!,
      );
    };

    before(async () => {
      // PATH is one folder holding a link to node: no sh, cc, espeak-ng, ffmpeg or ffprobe.
      nodeOnly = mkdtempSync(join(tmpdir(), 'palkit-node-only-'));
      symlinkSync(process.execPath, join(nodeOnly, 'node'));
      for (const tool of ['cc', 'espeak-ng', 'ffmpeg', 'ffprobe'])
        assert.equal(run(tool, ['--version'], app, { PATH: nodeOnly }).error?.message.includes('ENOENT'), true, `${tool} is out of reach`);
      // As if the install had skipped the package's postinstall (`chmod u+x ffmpeg`): the service sets the mode itself.
      chmodSync(ffmpegBinary(), 0o644);
      files = await startFileServer({ '/face.mp4': { body: portraitClip(2), contentType: 'video/mp4' } });
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      // The command as npm links it (node_modules/.bin/palkit → dist/cli.js), started by node itself: npx needs a shell.
      child = spawn(
        process.execPath,
        [join(app, 'node_modules/@palkit/server/dist/cli.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
        {
          cwd: app,
          env: cleanEnv({
            PATH: nodeOnly,
            PALKIT_DATA: 'memory',
            PALKIT_API_KEYS: `${KEY}:1`,
            PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
            PALKIT_LOG: 'error',
            PALKIT_ROOM_POLL_MS: '200',
          }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      await waitUntil(
        async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true,
        60_000,
        `the service to answer:\n${output}`,
      );
    });

    after(async () => {
      child?.kill('SIGKILL');
      await files?.close();
      if (nodeOnly) rmSync(nodeOnly, { recursive: true, force: true });
    });

    it('serves /healthz and /palkit.js', async () => {
      for (const path of ['/healthz', '/palkit.js']) {
        const r = await fetch(url + path);
        assert.equal(r.status, 200, `${path}: ${r.status}`);
        await r.arrayBuffer();
      }
    });

    /** A face trained from the test-pattern video, as the API shows it when training ended. */
    async function trainFace(): Promise<any> {
      const face = await api('POST', '/v2/faces', { face_name: 'Node only', train_video_url: `${files.url}/face.mp4` });
      assert.equal(face.status, 200, JSON.stringify(face.body));
      let trained: any;
      await waitUntil(
        async () => (trained = (await api('GET', `/v2/faces/${face.body.face_id}`)).body).status !== 'training',
        60_000,
        'face training',
      );
      return trained;
    }

    it('trains a face from a test-pattern video with the ffmpeg it installed: probe and JPEG thumbnail', async () => {
      const trained = await trainFace();
      assert.equal(trained.status, 'completed', JSON.stringify(trained));
      assert.ok(trained.thumbnail_image_url, `a thumbnail was extracted (no ffmpeg → none): ${JSON.stringify(trained)}`);
      const image = await fetch(trained.thumbnail_image_url);
      assert.equal(image.headers.get('content-type'), 'image/jpeg');
      const jpeg = Buffer.from(await image.arrayBuffer());
      assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
      assert.ok(jpeg.length > 1000, `${jpeg.length} bytes`);
      assert.ok((statSync(ffmpegBinary()).mode & 0o100) !== 0, 'the service made its ffmpeg executable');
    });

    // The speech parts need the WebAssembly voice (issue 24, the wasmvoice branch): with only node on PATH
    // the C eSpeak bridge has neither cc nor libespeak-ng to build against.
    it('renders a speech item with audible audio (WAV, and MP3 by default)', async () => {
      const wav = await api('POST', '/v2/speech', {
        script: 'Hello from palkit, running with only node on the path.',
        audio_format: 'wav',
      });
      assert.equal(wav.status, 200, JSON.stringify(wav.body));
      let item: any;
      await waitUntil(
        async () => ['ready', 'error'].includes((item = (await api('GET', `/v2/speech/${wav.body.speech_id}`)).body).status),
        60_000,
        'speech',
      );
      assert.equal(item.status, 'ready', `${item.error_details}\n${output}`);
      const audio = await fetch(item.audio_url);
      assert.equal(audio.headers.get('content-type'), 'audio/wav');
      const { sampleRate, samples } = wavSamples(new Uint8Array(await audio.arrayBuffer()));
      const level = rms(samples);
      console.log(`speech item: ${(samples.length / sampleRate).toFixed(2)} s, RMS ${level.toFixed(3)} of full scale`);
      assert.ok(samples.length / sampleRate > 1, `${samples.length / sampleRate} s of audio`);
      assert.ok(level > 0.01, `audible: RMS ${level} > 0.01 (−40 dBFS)`);

      // Without a format the service encodes MP3 with its ffmpeg; decoded back with the same binary, it is as loud.
      const mp3 = await api('POST', '/v2/speech', { script: 'And once more as MP3.' });
      await waitUntil(
        async () => ['ready', 'error'].includes((item = (await api('GET', `/v2/speech/${mp3.body.speech_id}`)).body).status),
        60_000,
        'MP3 speech',
      );
      assert.equal(item.status, 'ready', item.error_details);
      const encoded = await fetch(item.audio_url);
      assert.equal(encoded.headers.get('content-type'), 'audio/mpeg');
      const decoded = spawnSync(ffmpegBinary(), ['-v', 'error', '-i', 'pipe:0', '-f', 'wav', '-acodec', 'pcm_s16le', 'pipe:1'], {
        input: Buffer.from(await encoded.arrayBuffer()),
        maxBuffer: 64 << 20,
      });
      assert.equal(decoded.status, 0, decoded.stderr?.toString());
      assert.ok(rms(wavSamples(new Uint8Array(decoded.stdout)).samples) > 0.01, 'the MP3 is audible');
    });

    it('speaks in a local room: the PAL greets and the visitor hears non-silent PAL audio frames', async () => {
      const face = await trainFace();
      const pal = await api('POST', '/v2/pals', {
        pal_name: 'Node-only PAL',
        system_prompt: 'Repeat.',
        pipeline_mode: 'echo',
        default_face_id: face.face_id,
      });
      assert.equal(pal.status, 200, JSON.stringify(pal.body));
      const conversation = await api('POST', '/v2/conversations', {
        pal_id: pal.body.pal_id,
        custom_greeting: 'Hello, I am speaking with only node on the path.',
      });
      assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
      const room = await RoomClient.join(conversation.body.conversation_url, conversation.body.meeting_token, 'Visitor');
      try {
        await room.waitForEvent('conversation.replica.stopped_speaking', () => true, 60_000);
        const voice = room.audio.filter((f) => f.kind === AudioFrameKind.palVoice);
        const samples = new Int16Array(voice.reduce((n, f) => n + f.samples.length, 0));
        voice.reduce((at, f) => (samples.set(f.samples, at), at + f.samples.length), 0);
        const level = rms(samples);
        console.log(
          `room: ${voice.length} PAL audio frames, ${(samples.length / (voice[0]?.sampleRate ?? 1)).toFixed(2)} s, RMS ${level.toFixed(3)}`,
        );
        assert.ok(voice.length > 10, `${voice.length} PAL audio frames`);
        assert.ok(level > 0.01, `audible: RMS ${level} > 0.01`);
      } finally {
        room.close();
      }
    });
  });
});
