// docs/deploy/haproxy.cfg as an operator runs it (issue 53): Debian's HAProxy in front of two instances on one
// PostgreSQL, every call through it. A room WebSocket passes through; SIGTERM of the room's holder moves the
// call to the other instance, and keyed starts sent while it drains are retried there (none fails); SIGKILL of
// the holder costs the visitor seconds, not the call. PostgreSQL leg only: PGlite's database belongs to one
// process. Skipped where haproxy is not installed (`npm test` installs it).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { repoRoot } from '../../scripts/packing.js';
import { replyMs, startChaosService, type ChaosService } from '../helpers/chaos.js';
import { RoomClient } from '../helpers/live-fixtures.js';
import { freePort } from '../helpers/process.js';
import { onPostgres } from '../helpers/service.js';

const KEY = 'chaos-key';
const haproxy = spawnSync('haproxy', ['-v']).status === 0;
const skip = !onPostgres ? 'the PostgreSQL leg only (PALKIT_TEST_DATABASE_URL)' : !haproxy ? 'haproxy is not installed' : false;

describe('two instances behind docs/deploy/haproxy.cfg', { skip, timeout: 240_000 }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const base = new URL(process.env.PALKIT_TEST_DATABASE_URL ?? 'postgres://localhost/none');
  const instances: Array<{ port: number; service: ChaosService }> = [];
  let balancer: ChildProcess;
  let balancerLog = '';
  let lb: string;
  let palId: string;

  const admin = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const databaseUrl = () => {
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    return url.toString();
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(lb + path, {
      method,
      headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as any) : null };
  };
  const start = async (port: number) =>
    startChaosService(
      {
        DATABASE_URL: databaseUrl(),
        PALKIT_SECRET: 'one-secret-for-both-instances',
        PALKIT_TRUST_PROXY: '1',
        PALKIT_PUBLIC_URL: lb,
        PALKIT_ROOM_POLL_MS: '500',
        PALKIT_LOG: 'info',
      },
      { port },
    );
  /** Which of the two instances holds the conversation's room (by the instance id /healthz reports). */
  const holderOf = async (conversationId: string) => {
    const [row] = await admin(`select live_holder from ${schema}.conversations where conversation_id = $1`, [conversationId]);
    for (const [i, { service }] of instances.entries()) {
      const health = (await (await fetch(`${service.process.url}/healthz`)).json()) as { instance: string };
      if (health.instance === row?.live_holder) return i;
    }
    throw new Error(`no instance holds ${conversationId} (${row?.live_holder})`);
  };
  const waitForBalancer = async (healthy: number) => {
    const up = async () =>
      await fetch(`${lb}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
    for (let i = 0; !(await up()); i++) {
      if (balancer.exitCode !== null || i > 300) throw new Error(`the balancer is not serving:\n${balancerLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Give the health check time to see the instances up (rise 2 at 1 s).
    await new Promise((r) => setTimeout(r, healthy * 1000 + 1500));
  };
  /** The call's story in the two instances' logs, followed by its conversation id across a crash or a drain. */
  const storyOf = (conversationId: string) =>
    instances
      .flatMap(({ service }) => service.process.output().split('\n'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, string>];
        } catch {
          return [];
        }
      })
      .filter((entry) => entry.conversation_id === conversationId || String(entry.conversation_ids ?? '').includes(conversationId))
      .sort((a, b) => a.time!.localeCompare(b.time!));
  const told = (story: Array<Record<string, string>>) =>
    story.map((e) => `${e.time} ${e.instance} ${e.msg}${e.reason ? ` (${e.reason})` : ''}`).join('\n');
  /** A visitor in a new call through the balancer, greeted. */
  const visitor = async () => {
    const conv = await api('POST', '/v2/conversations', { pal_id: palId, custom_greeting: 'Hi.' });
    assert.equal(conv.status, 200, JSON.stringify(conv.body));
    assert.ok(String(conv.body.conversation_url).startsWith(lb), 'rooms are reached at the balancer');
    const client = await RoomClient.join(conv.body.conversation_url, conv.body.meeting_token, 'Visitor');
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 15_000);
    return { client, conv: conv.body as { conversation_id: string; conversation_url: string; meeting_token: string } };
  };
  /** Joins again through the balancer until a room answers; milliseconds from `since` to its answer. */
  const rejoin = async (conv: { conversation_url: string; meeting_token: string }, since: number) => {
    const attempts: string[] = [];
    for (;;) {
      const at = () => `${Math.round(performance.now() - since)} ms`;
      try {
        const client = await RoomClient.join(conv.conversation_url, conv.meeting_token, 'Visitor');
        attempts.push(`joined at ${at()}`);
        await replyMs(client, 5_000);
        return { client, ms: performance.now() - since, attempts };
      } catch (error) {
        attempts.push(`${(error as Error).message} at ${at()}`);
        if (performance.now() - since > 30_000) throw new Error(`no room answered in 30 s: ${attempts.join('; ')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  before(async () => {
    await admin(`create schema ${schema}`);
    const [lbPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
    lb = `http://127.0.0.1:${lbPort}`;
    for (const port of [portA, portB]) instances.push({ port, service: await start(port) });
    balancer = spawn('haproxy', ['-db', '-f', join(repoRoot, 'docs/deploy/haproxy.cfg')], {
      env: { ...process.env, PALKIT_LB_BIND: `127.0.0.1:${lbPort}`, PALKIT_A: `127.0.0.1:${portA}`, PALKIT_B: `127.0.0.1:${portB}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    balancer.stdout!.on('data', (d: Buffer) => (balancerLog += d.toString()));
    balancer.stderr!.on('data', (d: Buffer) => (balancerLog += d.toString()));
    await waitForBalancer(2);
    const pal = await api('POST', '/v2/pals', {
      pal_name: 'Echo',
      system_prompt: 'Echo',
      pipeline_mode: 'echo',
      default_face_id: 'rpalkitada',
    });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    palId = pal.body.pal_id;
  });
  after(async () => {
    balancer?.kill('SIGKILL');
    await Promise.all(instances.map(({ service }) => service.stop().catch(() => undefined)));
    await admin(`drop schema if exists ${schema} cascade`).catch(() => undefined);
  });

  it('passes a call through; SIGTERM of its holder moves it, and starts during the drain all succeed', async (t) => {
    const { client, conv } = await visitor();
    assert.ok((await replyMs(client)) < 5_000);
    const holder = await holderOf(conv.conversation_id);
    const signalled = performance.now();
    instances[holder]!.service.process.child.kill('SIGTERM');
    // The drained instance comes back on its port whatever this case finds, for the next one.
    t.after(async () => {
      await instances[holder]!.service.process.stop();
      instances[holder]!.service = await start(instances[holder]!.port);
      await waitForBalancer(1);
    });
    const starts = await Promise.all(Array.from({ length: 6 }, () => api('POST', '/v2/conversations', { pal_id: palId })));
    assert.deepEqual(
      starts.map((s) => s.status),
      starts.map(() => 200),
      `every start during the drain is served: ${JSON.stringify(starts.map((s) => s.body))}`,
    );
    assert.equal((await client.closed).code, 1012, 'the room tells the visitor to join again');
    const back = await rejoin(conv, signalled);
    console.log(`SIGTERM: the visitor's next answer ${Math.round(back.ms)} ms after the signal`);
    assert.ok(
      back.ms < 3_000,
      `answered again ${Math.round(back.ms)} ms after SIGTERM: ${back.attempts.join('; ')}\n${told(storyOf(conv.conversation_id))}\nthe drained instance's last lines:\n${instances[holder]!.service.process.output().split('\n').slice(-40).join('\n')}\n${balancerLog.slice(-3000)}`,
    );
    assert.notEqual(await holderOf(conv.conversation_id), holder, 'the other instance holds the room now');
    back.client.close();
  });

  it('SIGKILL of the holder costs the visitor seconds, not the call', async () => {
    const { client, conv } = await visitor();
    const holder = await holderOf(conv.conversation_id);
    const killed = performance.now();
    instances[holder]!.service.process.child.kill('SIGKILL');
    await client.closed;
    const back = await rejoin(conv, killed);
    console.log(`SIGKILL: the visitor's next answer ${Math.round(back.ms)} ms after the kill`);
    assert.ok(
      back.ms < 3_000,
      `answered again ${Math.round(back.ms)} ms after SIGKILL: ${back.attempts.join('; ')}\n${balancerLog.slice(-2000)}`,
    );
    back.client.close();

    const story = storyOf(conv.conversation_id);
    console.log(told(story));
    const said = (instance: string | undefined, msg: string) => story.some((e) => e.instance === instance && e.msg === msg);
    const [killedId, survivorId] = [
      story.find((e) => e.msg === 'room opened')?.instance,
      story.find((e) => e.msg === 'room taken over from a holder that does not answer')?.instance,
    ];
    assert.ok(said(killedId, 'participant joined'), 'the holder logged the visitor joining');
    assert.ok(survivorId && survivorId !== killedId, 'the other instance logged taking the room over');
    assert.ok(
      said(survivorId, 'room opened') && said(survivorId, 'participant joined'),
      'and the room opening there and the visitor joining',
    );
  });
});
