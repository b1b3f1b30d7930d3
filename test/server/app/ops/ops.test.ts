// Operating the service: /readyz, /metrics (prom-client), request ids, JSON log lines, the drain.
import { buildInfo } from '../../../../src/server/platform/version.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unlistedMigrations } from '../../../../src/server/platform/db/migrate.js';
import { formatLine } from '../../../../src/server/platform/log.js';
import { createPal } from '../../../helpers/fixtures.js';
import { serviceLogDuring } from '../../../helpers/service-log.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

/** The value of one sample in a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return 0;
}

describe('operations', () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService();
  });
  after(() => t.close());

  it('/readyz answers 200 when the database answers and jobs run; /healthz stays as it is', async () => {
    const ready = await t.api('GET', '/readyz', undefined, { key: null });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { ok: true });
    assert.deepEqual((await t.api('GET', '/healthz', undefined, { key: null })).body, {
      ok: true,
      version: buildInfo().version,
      instance: t.service.deps.instanceId,
    });
  });

  it('/readyz answers 503 with an error while the job runner is not running', async () => {
    const idle = await startListeningService({}, { runJobs: false });
    try {
      const r = await idle.api('GET', '/readyz', undefined, { key: null });
      assert.equal(r.status, 503);
      assert.match(r.body.error, /^not_ready: /);
    } finally {
      await idle.close();
    }
  });

  it('/metrics counts starts and refusals, reports gauges and latency by route pattern', async () => {
    const before = await (await fetch(`${t.url}/metrics`)).text();
    const { palId } = await createPal(t);
    const started = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const refused = await t.api('POST', '/v2/deployments/dnope/start', {}, { key: null });
    assert.ok(refused.status >= 400);
    await t.api('GET', `/v2/conversations/${started.body.conversation_id}`);

    const response = await fetch(`${t.url}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    assert.equal(
      sample(text, 'palkit_conversation_starts_total', { via: 'api' }) - sample(before, 'palkit_conversation_starts_total', { via: 'api' }),
      1,
    );
    const reason = String(refused.body.error ?? refused.body.message).split(':')[0]!;
    assert.equal(sample(text, 'palkit_start_refusals_total', { via: 'deployment', reason }), 1, text);
    assert.ok(sample(text, 'palkit_live_conversations') >= 1);
    assert.match(text, /^palkit_job_queue_depth \d+$/m);
    assert.match(text, /^palkit_job_lag_seconds [\d.e+-]+$/m);
    assert.match(text, /^# TYPE palkit_webhook_delivery_failures_total counter$/m);
    assert.ok(
      sample(text, 'palkit_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v2/conversations/:conversation_id',
        status: '200',
      }) >= 1,
      'the route pattern, not the path',
    );
    assert.ok(!text.includes(started.body.conversation_id), 'no raw paths or ids in labels');
  });

  it('/metrics asks for the bearer token when PALKIT_METRICS_TOKEN is set', async () => {
    const guarded = await startListeningService({ PALKIT_METRICS_TOKEN: 'scrape-secret' });
    try {
      assert.equal((await fetch(`${guarded.url}/metrics`)).status, 401);
      assert.equal((await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
      assert.equal((await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } })).status, 200);
    } finally {
      await guarded.close();
    }
  });

  it('gives every request an id: a sane x-request-id is kept, anything else replaced', async () => {
    const own = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'abc-123_X=' } });
    assert.equal(own.headers.get('x-request-id'), 'abc-123_X=');
    const generated = await fetch(`${t.url}/v2/nothing-here`);
    assert.equal(generated.status, 404);
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const insane = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'a b<script>' } });
    assert.match(insane.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const long = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    assert.notEqual(long.headers.get('x-request-id'), 'x'.repeat(200));
  });

  it('logs one JSON line per request with its id (no query string)', async () => {
    const logged = await startListeningService({ PALKIT_LOG: 'info' });
    let entries: Array<Record<string, unknown>>;
    let text: string;
    try {
      ({ lines: entries, text } = await serviceLogDuring(() =>
        fetch(`${logged.url}/v2/pals?token=secret`, { headers: { 'x-request-id': 'req-42' } }),
      ));
    } finally {
      await logged.close();
    }
    const entry = entries.find((e) => e.request_id === 'req-42');
    assert.ok(entry, text);
    assert.equal(entry.msg, 'request');
    assert.equal(entry.level, 'info');
    assert.equal(entry.method, 'GET');
    assert.equal(entry.path, '/v2/pals');
    assert.equal(entry.status, 401);
    assert.equal(typeof entry.time, 'string');
    assert.ok(!text.includes('secret'));
  });

  it('formats log lines as JSON and keeps secrets out', () => {
    const line = JSON.parse(
      formatLine(
        'error',
        'connect to postgres://app:hunter2@db:5432/x failed',
        {
          api_key: 'pk_live_1',
          meeting_token: 't',
          headers: { authorization: 'Bearer abc.def', accept: 'json' },
          url: 'https://user:pw@example.com/path',
          note: 'sent Bearer abc.def',
          count: 3n,
          msg: 'cannot replace the message',
        },
        new Date('2026-01-01T00:00:00Z'),
      ),
    ) as Record<string, any>;
    assert.deepEqual(Object.keys(line).slice(0, 3), ['time', 'level', 'msg']);
    assert.equal(line.time, '2026-01-01T00:00:00.000Z');
    assert.equal(line.level, 'error');
    assert.equal(line.msg, 'connect to postgres://[redacted]@db:5432/x failed');
    assert.equal(line.api_key, '[redacted]');
    assert.equal(line.meeting_token, '[redacted]');
    assert.equal(line.headers.authorization, '[redacted]');
    assert.equal(line.headers.accept, 'json');
    assert.equal(line.url, 'https://[redacted]@example.com/path');
    assert.equal(line.note, 'sent Bearer [redacted]');
    assert.equal(line.count, '3');
    assert.doesNotMatch(JSON.stringify(line), /hunter2|pk_live_1|abc\.def|user:pw/);
  });

  it('draining refuses new starts and room joins with 503 and answers /readyz with 503', async () => {
    const draining = await startListeningService();
    const { palId } = await createPal(draining);
    draining.service.deps.lifecycle.draining = true;
    try {
      const start = await draining.api('POST', '/v2/conversations', { pal_id: palId });
      assert.equal(start.status, 503);
      assert.match(start.body.error, /^shutting_down: /);
      assert.equal((await draining.api('GET', '/readyz', undefined, { key: null })).status, 503);
      const text = await (await fetch(`${draining.url}/metrics`)).text();
      assert.equal(sample(text, 'palkit_start_refusals_total', { via: 'api', reason: 'shutting_down' }), 1);
      // A room join is refused at the upgrade too, so that a balancer tries it on another instance.
      const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = new WebSocket(`${draining.url.replace(/^http/, 'ws')}/rooms/c123`);
        socket.on('open', () => reject(new Error('a draining instance took a room upgrade')));
        socket.on('unexpected-response', (_request, response) => {
          let body = '';
          response.on('data', (d: Buffer) => (body += d.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        socket.on('error', () => undefined);
      });
      assert.equal(refused.status, 503);
      assert.match((JSON.parse(refused.body) as { error: string }).error, /^shutting_down: /);
    } finally {
      await draining.close();
    }
  });

  it('lists every migration file for the compiled service, and names one that is not listed', () => {
    assert.deepEqual(unlistedMigrations(), []);
    const folder = mkdtempSync(join(tmpdir(), 'palkit-migrations-'));
    for (const f of ['0001_core.ts', '0999_new_table.ts', 'index.ts', '0002_domain.d.ts']) writeFileSync(join(folder, f), '');
    assert.deepEqual(unlistedMigrations(folder), ['0999_new_table']);
  });
});
