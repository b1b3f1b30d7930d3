// A Daily runner entry for an installed @palkit/server (test/realtime/e2e/install.test.ts): the package's
// own compiled runner (dist/daily-runner.js: its Chromium via the playwright-core it installed, its
// prebuilt page script with daily-js inside) with daily-js's call object swapped for a stand-in, as Daily
// cannot be reached from here. A visitor joins; once the tracks the page published carry the PAL's voice
// (audible) and face (frames), the stand-in writes what it measured to `report`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from '../../scripts/packing.js';
import { DAILY_KEY, startFakeDaily } from './fake-daily.js';
import { waitUntil } from './loopback.js';
import { freePort } from './process.js';
import { standInCallScript } from './stand-in-call-script.js';

export interface InstalledRunnerReport {
  peak: number;
  width: number;
  height: number;
}

const initScript = standInCallScript(
  { session_id: 'visitor', user_name: 'Visitor' },
  'await window.standinReport(JSON.stringify({ peak, width: video.videoWidth, height: video.videoHeight }));',
);

/** Writes the entry (an .mjs beside `dir`'s install) and says where it reports. */
export function writeInstalledRunnerStandin(dir: string, serverPackage: string): { entry: string; report: string } {
  const entry = join(dir, 'daily-runner-standin.mjs');
  const report = join(dir, 'daily-runner-report.json');
  const runner = pathToFileURL(join(serverPackage, 'dist/daily-runner.js')).href;
  writeFileSync(
    entry,
    [
      "import { writeFileSync } from 'node:fs';",
      `import { main } from ${JSON.stringify(runner)};`,
      `main({`,
      `  initScript: ${JSON.stringify(initScript)},`,
      `  async onPage(page) { await page.exposeFunction('standinReport', (json) => writeFileSync(${JSON.stringify(report)}, json)); },`,
      `});`,
    ].join('\n'),
  );
  return { entry, report };
}

/**
 * Serves the installed package (`app`'s node_modules) with a Daily key against a fake Daily REST API and
 * the stand-in entry, opens a Daily conversation with Ada, and answers what the runner page's published
 * tracks carried; the service and its runner are killed at the end.
 */
export async function runInstalledDailyRunner(app: string, work: string, apiKey: string): Promise<InstalledRunnerReport> {
  const daily = await startFakeDaily();
  const standin = writeInstalledRunnerStandin(work, join(app, 'node_modules/@palkit/server'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(
    process.execPath,
    [join(app, 'node_modules/@palkit/server/dist/cli.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: app,
      env: cleanEnv({
        PALKIT_DATA: 'memory',
        PALKIT_API_KEYS: `${apiKey}:1`,
        PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
        PALKIT_PUBLIC_URL: url,
        PALKIT_LOG: 'info',
        PALKIT_DAILY_API_KEY: DAILY_KEY,
        PALKIT_DAILY_API_URL: daily.url,
        PALKIT_DAILY_RUNNER_ENTRY: standin.entry,
        PALKIT_DAILY_RUNNER_PAGES: '1',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitUntil(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true, 60_000, `the service:\n${output}`);
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(url + path, {
        method,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const pal = await api('POST', '/v2/pals', {
      pal_name: 'Ada',
      system_prompt: 'Repeat.',
      pipeline_mode: 'echo',
      default_face_id: 'rpalkitada',
      custom_greeting: 'Hello, I joined the Daily room from the installed package.',
    });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    const conversation = await api('POST', '/v2/conversations', { pal_id: pal.body.pal_id });
    assert.equal(conversation.status, 200, JSON.stringify(conversation.body));
    assert.match(conversation.body.conversation_url, /daily\.co/);
    await waitUntil(async () => existsSync(standin.report), 60_000, `the runner page's tracks:\n${output}`);
    assert.match(output, /"msg":"Daily runner joined its room"/);
    assert.equal((await api('POST', `/v2/conversations/${conversation.body.conversation_id}/end`)).status, 200);
    return JSON.parse(readFileSync(standin.report, 'utf8')) as InstalledRunnerReport;
  } finally {
    child.kill('SIGKILL');
    await daily.close();
  }
}
