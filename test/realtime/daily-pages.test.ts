// palkit's own runner for Daily rooms (live/runner/pages.ts): a Daily conversation opens the PAL's local
// room and a runner process that bridges into it with a bridge token; the PAL greets and answers through
// it; the runner is killed when the conversation ends, a crashed or stalled one ends its conversation
// only (end callbacks once), and a start past PALKIT_DAILY_RUNNER_PAGES is refused 429 `busy`. The
// runner is the stand-in process test/helpers/daily-runner-standin.ts (the page itself needs Chromium). In the
// real-time tier: real child processes and sockets, and a cleanup hang seen once is retried there, not a red gate.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DAILY_KEY, RUNNER_SECRET, startFakeDaily, startFakeRunner } from '../helpers/fake-daily.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { createPal } from '../helpers/fixtures.js';
import { insertConversation, RoomClient, startCallbackReceiver, token, type CallbackReceiver } from '../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../helpers/service.js';
import { ManualClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait-for.js';
import { loadTranscript } from '../../src/server/resources/conversations/transcript-store.js';
import { RUNNER_FAILED_REASON, RUNNER_STALL_MS, runnerPagesFor } from '../../src/server/live/runner/pages.js';

const STANDIN = fileURLToPath(new URL('../helpers/daily-runner-standin.ts', import.meta.url));
const until = (predicate: () => boolean | Promise<boolean>, what: string, timeout = 15_000) =>
  waitFor(predicate, { timeout, interval: 50, what: () => what });

/** Whether a process is alive (signal 0 only asks). */
function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("palkit's own Daily runner", () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let bot: Awaited<ReturnType<typeof startFakeRunner>>;
  let llm: FakeLlm;
  let receiver: CallbackReceiver;
  let t: TestService;
  let palId: string;

  before(async () => {
    [daily, bot, llm, receiver] = await Promise.all([startFakeDaily(), startFakeRunner(), startFakeLlm(), startCallbackReceiver()]);
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_RUNNER_PAGES: '2',
      PALKIT_DAILY_RUNNER_ENTRY: STANDIN,
      // The customer's own bot is configured too (the default for PALs that pick nothing); this file's PAL
      // picks palkit's runner.
      PALKIT_PAL_RUNNER_URL: bot.url,
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
      PALKIT_LLM_BASE_URL: llm.baseUrl,
      PALKIT_LLM_MODEL: 'fake',
    });
    ({ palId } = await createPal(t, {
      pal_name: 'Ada',
      system_prompt: 'You are Ada.',
      pipeline_mode: 'full',
      definition: { layers: { daily: { runner: 'palkit' } } },
    }));
  });
  // Bounded: a cleanup that once hung (1 run in 7, cause not found) fails the file, which the tier retries.
  after(
    async () => {
      await t.close();
      await Promise.all([daily.close(), bot.close(), llm.close(), receiver.close()]);
    },
    { timeout: 60_000 },
  );

  const pages = () => runnerPagesFor(t.service.deps);
  const start = (properties: Record<string, unknown> = {}) =>
    t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url, properties });
  const eventsOf = (id: string, type: string) => receiver.bodies.filter((b) => b.conversation_id === id && b.event_type === type);

  it('bridges the Daily room into the PAL room: joined once, greets, answers, killed at the end with one shutdown', async () => {
    const r = await start();
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id: string = r.body.conversation_id;
    assert.equal(r.body.conversation_url, `https://palkit-test.daily.co/${id}`, 'the visitor goes to Daily');
    const tokens = daily.calls.filter((c) => c.path === '/v1/meeting-tokens' && c.body.properties.room_name === id);
    assert.deepEqual(
      tokens.map((c) => [c.body.properties.is_owner, c.body.properties.user_id ?? null]),
      [
        [false, null],
        [true, `pal_${palId}`],
      ],
      "a visitor token, then the runner's owner token as the PAL",
    );
    const pid = pages().state(id)?.pid;
    assert.ok(alive(pid), 'one runner process for the conversation');

    await until(() => eventsOf(id, 'system.pal_joined').length === 1, 'pal_joined');
    // The bridge joined the PAL's room, the PAL greeted it, heard "hello" and answered with the model.
    await until(() => llm.requests.length > 0 && (pages().state(id)?.published.length ?? 0) === 2, 'the PAL answered, voiced');
    assert.match(JSON.stringify(llm.requests.at(-1)!.body.messages), /hello/);
    await until(
      async () => (await loadTranscript(t.service.deps.db, id)).some((e) => e.role === 'assistant' && e.content.includes('the model')),
      'the reply spoken into the bridge',
    );
    assert.deepEqual(pages().state(id)!.published.sort(), ['audio', 'video']);

    assert.equal((await t.api('POST', `/v2/conversations/${id}/end`)).status, 200);
    await until(() => !alive(pid), 'the runner is killed when its conversation ends');
    await receiver.waitFor(() => eventsOf(id, 'application.transcription_ready').length === 1);
    const transcript = eventsOf(id, 'application.transcription_ready')[0]!.properties.transcript as Array<{
      role: string;
      content: string;
    }>;
    assert.ok(
      transcript.some((e) => e.role === 'user' && e.content === 'hello'),
      JSON.stringify(transcript),
    );
    assert.ok(
      transcript.some((e) => e.role === 'assistant' && e.content.includes('Hello from the model.')),
      JSON.stringify(transcript),
    );
    assert.equal(pages().state(id), null);
    // Nothing is sent twice, however the end reached it (the room's close, the runner's exit, the job closing Daily's room).
    await until(() => !daily.rooms.has(id), "the end's last step: Daily's room deleted");
    assert.equal(eventsOf(id, 'system.pal_joined').length, 1);
    assert.equal(eventsOf(id, 'system.replica_joined').length, 1);
    assert.equal(eventsOf(id, 'system.shutdown').length, 1);
    assert.equal(eventsOf(id, 'system.shutdown')[0]!.properties.shutdown_reason, 'end_conversation_endpoint_hit');
  });

  it('a bridge token opens only a Daily PAL room, and nothing else opens one', async () => {
    const r = await start();
    const id: string = r.body.conversation_id;
    const refusedWith = async (url: string, meetingToken: string) => {
      const client = await RoomClient.open(url);
      client.send({ type: 'join', meeting_token: meetingToken });
      const frame = await client.waitFor((f) => f.type === 'error' || f.type === 'joined');
      client.close();
      return frame.type === 'error' ? frame.code : frame.type;
    };
    const palRoom = `${t.url}/rooms/${id}`;
    assert.equal(await refusedWith(palRoom, token(t, id)), 'not_found', 'a visitor token does not open the PAL room');
    assert.equal(await refusedWith(palRoom, token(t, id, { role: 'operator' })), 'not_found', 'nor does an operator token');
    const local = await insertConversation(t, { palId });
    const bridgeHere = token(t, local.conversationId, { role: 'bridge' });
    assert.equal(
      await refusedWith(local.conversationUrl, bridgeHere),
      'not_found',
      "a bridge token does not open a local conversation's room",
    );
    assert.equal(await refusedWith(palRoom, token(t, id, { role: 'bridge' })), 'joined', 'a bridge token opens the PAL room');
    await t.api('POST', `/v2/conversations/${id}/end`);
  });

  it('a crashed runner ends its own conversation (once, with the reason), and no other', async () => {
    const a = await start();
    const b = await start();
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const [ia, ib] = [a.body.conversation_id as string, b.body.conversation_id as string];
    await until(() => Boolean(pages().state(ia)?.joined && pages().state(ib)?.joined), 'both runners joined');
    process.kill(pages().state(ia)!.pid!, 'SIGKILL');
    await receiver.waitFor(() => eventsOf(ia, 'system.shutdown').length === 1);
    assert.equal(eventsOf(ia, 'system.shutdown')[0]!.properties.shutdown_reason, RUNNER_FAILED_REASON);
    assert.equal((await t.api('GET', `/v2/conversations/${ia}`)).body.status, 'ended');
    assert.equal((await t.api('GET', `/v2/conversations/${ib}`)).body.status, 'active', 'the other call goes on');
    assert.ok(alive(pages().state(ib)?.pid));
    await until(() => !daily.rooms.has(ia), "the end's last step: Daily's room deleted");
    assert.equal(eventsOf(ia, 'system.shutdown').length, 1);
    await t.api('POST', `/v2/conversations/${ib}/end`);
  });

  it("a runner that cannot start (Daily refuses the PAL's token) ends the conversation once and answers 503 pal_unavailable", async () => {
    daily.fail.botTokens = 1;
    const r = await start();
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.match(r.body.error, /^pal_unavailable/);
    assert.equal(pages().size, 0, 'its slot is given back');
    const [conversation] = (await t.api('GET', '/v2/conversations?limit=1')).body.data as Array<{
      conversation_id: string;
      status: string;
    }>;
    assert.equal(conversation!.status, 'ended');
    const id = conversation!.conversation_id;
    await until(() => !daily.rooms.has(id), "Daily's room deleted");
    // The callback travels over HTTP: waited for, then counted once the room's end has settled.
    await until(() => eventsOf(id, 'system.shutdown').length > 0, 'the shutdown callback');
    await t.service.deps.jobs.drain(2_000);
    const shutdown = eventsOf(id, 'system.shutdown');
    assert.equal(shutdown.length, 1);
    assert.equal(shutdown[0]!.properties.shutdown_reason, 'exception_encountered_during_conversation_startup');
  });

  it('past PALKIT_DAILY_RUNNER_PAGES a start is refused 429 busy and withdrawn; a slot freed takes the next', async () => {
    const a = await start();
    const b = await start();
    assert.equal(pages().size, 2);
    const rooms = daily.rooms.size;
    const count = async () => (await t.api('GET', '/v2/conversations?limit=100')).body.data.length as number;
    const before = await count();
    const refused = await start();
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.match(refused.body.error, /^busy: /);
    assert.equal(refused.headers.get('retry-after'), '30');
    assert.equal(pages().size, 2, 'no third runner');
    assert.equal(daily.rooms.size, rooms, "the refused start's Daily room is deleted");
    assert.equal(await count(), before, 'the refused conversation never was');
    await t.api('POST', `/v2/conversations/${a.body.conversation_id}/end`);
    await until(() => pages().size === 1, 'the ended conversation gave its slot back');
    const next = await start();
    assert.equal(next.status, 200, JSON.stringify(next.body));
    for (const id of [b.body.conversation_id, next.body.conversation_id]) await t.api('POST', `/v2/conversations/${id}/end`);
  });

  it("a PAL that picks nothing goes to the customer's bot configured here, the PAL that picks palkit to its runner", async () => {
    const { palId: plain } = await createPal(t, { pal_name: 'Grace', system_prompt: 'You are Grace.', pipeline_mode: 'full' });
    const handed = await t.api('POST', '/v2/conversations', { pal_id: plain, callback_url: receiver.url });
    assert.equal(handed.status, 200, JSON.stringify(handed.body));
    assert.deepEqual(
      bot.requests.map((r) => r.body.conversation_id),
      [handed.body.conversation_id],
      "handed to the bot, the only handoff of this file's calls",
    );
    assert.equal(pages().state(handed.body.conversation_id), null, 'no runner page for it');
    const own = await start();
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.ok(pages().state(own.body.conversation_id), 'a runner page for the PAL that picks palkit');
    assert.equal(bot.requests.length, 1);
    for (const r of [handed, own]) await t.api('POST', `/v2/conversations/${r.body.conversation_id}/end`);
    await until(() => pages().size === 0, 'the runner ended with its conversation');
  });
});

describe("palkit's own Daily runner, on the test clock", () => {
  it('a stalled runner (silent past RUNNER_STALL_MS) is killed and ends its conversation', async () => {
    const clock = new ManualClock();
    const [daily, receiver] = await Promise.all([startFakeDaily(), startCallbackReceiver()]);
    const t = await startListeningService(
      {
        PALKIT_DAILY_API_KEY: DAILY_KEY,
        PALKIT_DAILY_API_URL: daily.url,
        PALKIT_DAILY_RUNNER_ENTRY: STANDIN,
        PALKIT_DAILY_RUNNER_PAGES: '2',
      },
      { clock },
    );
    try {
      const { palId } = await createPal(t, { pal_name: 'Ada' });
      const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const id: string = r.body.conversation_id;
      const pages = runnerPagesFor(t.service.deps);
      await until(() => pages.state(id)?.joined === true, 'the runner joined');
      const pid = pages.state(id)!.pid!;
      process.kill(pid, 'SIGSTOP');
      await clock.advance(RUNNER_STALL_MS - 500);
      assert.ok(alive(pid), 'not yet stalled');
      await clock.advance(1000);
      await until(() => !alive(pid), 'the stalled runner is killed');
      await receiver.waitFor((bodies) => bodies.some((b) => b.event_type === 'system.shutdown'));
      const shutdown = receiver.bodies.filter((b) => b.event_type === 'system.shutdown');
      assert.equal(shutdown.length, 1);
      assert.equal(shutdown[0]!.properties.shutdown_reason, RUNNER_FAILED_REASON);
    } finally {
      await t.close();
      await Promise.all([daily.close(), receiver.close()]);
    }
  });
});
