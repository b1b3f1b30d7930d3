// Daily's loose ends (issue 35): what Daily cannot do is refused where it is configured, not at each
// visitor's start; and a Daily conversation ends at its max_call_duration, and at its
// participant_absent_timeout when nobody joins, whether or not a PAL bot ever joined — its callbacks
// sent once, its deployment's slot given back. On a clock the test moves: each deadline is a durable
// job; the test lets the queue run the ones the clock has reached.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAILY_KEY, DAILY_WEBHOOK_SECRET, dailyEvent, startFakeDaily } from '../../../helpers/fake-daily.js';
import { createPal } from '../../../helpers/fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { systemClock } from '../../../../src/server/platform/time.js';

describe('Daily edges', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let t: TestService;
  let palId: string;
  // The service's clock stands still unless the test moves it (a busy machine's seconds count for nothing).
  const base = Date.now();
  let offsetMs = 0;
  const clock = { ...systemClock, now: () => new Date(base + offsetMs) };

  before(async () => {
    daily = await startFakeDaily();
    t = await startListeningService(
      {
        PALKIT_DAILY_API_KEY: DAILY_KEY,
        PALKIT_DAILY_API_URL: daily.url,
        PALKIT_DAILY_WEBHOOK_SECRET: DAILY_WEBHOOK_SECRET,
        // Daily's room and deadlines alone: no PAL joins (palkit's runner has its own tests).
        PALKIT_DAILY_RUNNER_PAGES: '0',
      },
      { clock },
    );
    ({ palId } = await createPal(t, { pal_name: 'Ada' }));
  });
  after(async () => {
    await t.close();
    await daily.close();
  });

  const db = () => t.service.deps.db;
  const statusOf = async (id: string) =>
    await db()
      .selectFrom('conversations')
      .select(['status', 'shutdown_reason'])
      .where('conversation_id', '=', id)
      .executeTakeFirstOrThrow();
  const callbacks = async (id: string) =>
    (await db().selectFrom('conversation_events').select('event_type').where('conversation_id', '=', id).execute()).map(
      (e) => e.event_type,
    );
  const count = (list: string[], type: string) => list.filter((x) => x === type).length;
  /** The clock moves on `seconds`; the queue (on the same clock) runs the jobs that are due by it. */
  async function advance(seconds: number): Promise<void> {
    offsetMs += seconds * 1000;
    await t.service.deps.jobs.drain(0);
  }
  /** A Daily event signed at the test clock's time, as Daily's clock and the service's agree. */
  const eventNow = (type: string, payload: Record<string, unknown>) =>
    dailyEvent(type, payload, { timestamp: Math.floor(clock.now().getTime() / 1000) });
  const post = (event: { body: string; headers: Record<string, string> }) =>
    fetch(`${t.url}/v2/daily/webhooks`, { method: 'POST', headers: event.headers, body: event.body }).then((r) => r.status);

  it('refuses a recording deployment or conversation on Daily when it is configured (create, patch, activate), saying what to change', async () => {
    const recording = { recording: { enabled: true } };
    const created = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page', customization: recording });
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.match(
      created.body.error,
      /customization\.recording\.enabled: Daily conversations cannot be recorded by this service .*turn recording off/,
    );
    const plain = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'landing-page',
      customization: { recording: { enabled: false } },
    });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    const id = plain.body.deployment_id;
    const patched = await t.api('PATCH', `/v2/deployments/${id}`, [
      { op: 'replace', path: '/customization/recording/enabled', value: true },
      { op: 'replace', path: '/status', value: 'active' },
    ]);
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.match(patched.body.error, /customization\.recording\.enabled: Daily/);
    assert.equal((await t.api('GET', `/v2/deployments/${id}`)).body.status, 'draft', 'nothing was written');
    // Without recording it activates, and a visitor's start works.
    assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
    const started = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const conv = await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { enable_recording: true } });
    assert.equal(conv.status, 400);
    assert.match(conv.body.error, /properties\.enable_recording: Daily conversations cannot be recorded/);
  });

  it('without a PAL bot, a conversation nobody joins ends at participant_absent_timeout, sends its callbacks once and gives its slot back', async () => {
    const dep = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'landing-page',
      limits: { max_concurrent_calls: 1, max_call_duration: 900 },
    });
    assert.equal(dep.status, 200, JSON.stringify(dep.body));
    const id = dep.body.deployment_id;
    assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
    const first = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const conversationId = first.body.conversation_id as string;
    assert.equal((await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null })).status, 429, 'the one slot is taken');

    await advance(299);
    assert.equal((await statusOf(conversationId)).status, 'active', 'not before its absent timeout (300 s)');
    await advance(1);
    assert.deepEqual(await statusOf(conversationId), { status: 'ended', shutdown_reason: 'participant_absent_timeout reached' });
    const sent = await callbacks(conversationId);
    assert.equal(count(sent, 'system.shutdown'), 1);
    assert.equal(count(sent, 'application.transcription_ready'), 1);
    assert.equal(daily.rooms.has(conversationId), false, 'the Daily room is deleted');
    await advance(900);
    assert.equal(count(await callbacks(conversationId), 'system.shutdown'), 1, 'the max_call_duration job changes nothing');
    const again = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null });
    assert.equal(again.status, 200, `the slot is free again: ${JSON.stringify(again.body)}`);
  });

  it('a Daily conversation a visitor joined ends at max_call_duration, then sends its callbacks once (meeting.ended or not)', async () => {
    const created = await t.api('POST', '/v2/conversations', { pal_id: palId, properties: { max_call_duration: 600 } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.conversation_id as string;
    assert.equal(
      await post(eventNow('participant.joined', { room: id, user_id: 'visitor-1', user_name: 'Guest', session_id: 's1', owner: false })),
      200,
    );
    await advance(300);
    assert.equal((await statusOf(id)).status, 'active', 'a visitor joined: the absent timeout does not apply');
    await advance(299);
    assert.equal((await statusOf(id)).status, 'active', 'not before max_call_duration');
    await advance(1);
    assert.deepEqual(await statusOf(id), { status: 'ended', shutdown_reason: 'max_call_duration reached' });
    assert.equal(count(await callbacks(id), 'system.shutdown'), 0, 'a meeting took place: its callbacks wait a little for meeting.ended');
    await advance(60);
    assert.equal(count(await callbacks(id), 'system.shutdown'), 1, 'meeting.ended never came: sent without it');
    assert.equal(await post(eventNow('meeting.ended', { room: id, meeting_id: 'm1', start_ts: 1, end_ts: 2 })), 200);
    const sent = await callbacks(id);
    assert.equal(count(sent, 'system.shutdown'), 1, 'once');
    assert.equal(count(sent, 'application.transcription_ready'), 1, 'once');
  });
});
