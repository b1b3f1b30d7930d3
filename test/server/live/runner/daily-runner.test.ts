// PALs in Daily rooms: the signed handoff to the PAL runner, its refusal, and the runner API, against
// loopback fakes of Daily's REST API and of a runner that verifies signatures with `standardwebhooks`.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ApiClient } from '../../../../src/palkit/client/api.js';
import { PalClientError } from '../../../../src/palkit/client/errors.js';
import { startOutcome } from '../../../../src/palkit/client/start-errors.js';
import { ConfigError, loadConfig } from '../../../../src/server/platform/config.js';
import { RunnerHandoff } from '../../../../src/server/live/runner/routes.js';
import { RUNNER_TIMEOUT_MS } from '../../../../src/server/live/runner/handoff.js';
import { DAILY_KEY, RUNNER_SECRET, startFakeDaily, startFakeRunner } from '../../../helpers/fake-daily.js';
import { createPal } from '../../../helpers/fixtures.js';
import { insertFace, startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { ManualClock } from '../../../helpers/clock.js';
import { waitFor } from '../../../helpers/wait-for.js';

const until = (predicate: () => boolean, timeoutMs = 15_000) => waitFor(predicate, { timeout: timeoutMs, interval: 50 });

describe('PAL runner handoff', () => {
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let runner: Awaited<ReturnType<typeof startFakeRunner>>;
  let receiver: CallbackReceiver;
  let t: TestService;
  let palId: string;
  let faceId: string | null;

  before(async () => {
    daily = await startFakeDaily();
    runner = await startFakeRunner();
    receiver = await startCallbackReceiver();
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_PAL_RUNNER_URL: runner.url,
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
    });
    ({ palId, faceId } = await createPal(t, {
      pal_name: 'Ada',
      system_prompt: 'You are Ada.',
      pipeline_mode: 'full',
      definition: {
        custom_greeting: 'Hello from Ada!',
        disclosure_type: 'always',
        verbal_disclosure: 'I am an AI.',
        languages: ['en', 'de'],
        layers: {
          llm: { model: 'gpt-x', base_url: 'https://llm.example', api_key_encrypted: 'v1:secret-ciphertext' },
          tts: { voice: 'alto', api_key: 'sk-live-123' },
        },
      },
    }));
  });
  after(async () => {
    await t.close();
    await Promise.all([daily.close(), runner.close(), receiver.close()]);
  });
  beforeEach(() => {
    daily.calls.length = 0;
    runner.requests.length = 0;
    runner.state.mode = 'accept';
  });

  it('hands the room to the runner: a signed POST with the room, an owner bot token and the PAL settings', async () => {
    const r = await t.api('POST', '/v2/conversations', {
      pal_id: palId,
      conversational_context: 'A returning customer.',
      properties: { max_call_duration: 600 },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id = r.body.conversation_id;
    assert.equal(runner.requests.length, 1);
    const [handoff] = runner.requests;
    assert.equal(handoff!.verified, true, 'standardwebhooks verifies the signature');
    assert.match(String(handoff!.headers['webhook-id']), /^msg_/);
    const body = handoff!.body;
    assert.equal(body.conversation_id, id);
    assert.equal(body.room_url, `https://palkit-test.daily.co/${id}`);
    assert.equal(body.bot_user_id, `pal_${palId}`);

    const tokenCalls = daily.calls.filter((c) => c.path === '/v1/meeting-tokens');
    assert.equal(tokenCalls.length, 2, 'one visitor token, one bot token');
    const roomExp = daily.calls.find((c) => c.path === '/v1/rooms')!.body.properties.exp;
    assert.deepEqual(tokenCalls[1]!.body, {
      properties: { room_name: id, exp: roomExp, is_owner: true, user_name: 'Ada', user_id: `pal_${palId}` },
    });
    assert.deepEqual(daily.tokenProperties(body.bot_token), tokenCalls[1]!.body.properties);
    assert.notEqual(body.bot_token, r.body.meeting_token, 'the visitor never gets the bot token');

    assert.deepEqual(body.pal, {
      pal_id: palId,
      name: 'Ada',
      pipeline_mode: 'full',
      system_prompt: 'You are Ada.',
      greeting: 'Hello from Ada!',
      disclosure: { required: true, verbal: 'I am an AI.', visual: 'You are interacting with an AI system.' },
      languages: ['en', 'de'],
      layers: { llm: { model: 'gpt-x', base_url: 'https://llm.example' }, tts: { voice: 'alto' } },
      face_id: faceId,
      face_rig_url: null,
    });
    assert.ok(
      !JSON.stringify(body).includes('sk-live-123') && !JSON.stringify(body).includes('secret-ciphertext'),
      'no layer secret leaves',
    );
    assert.equal(body.conversational_context, 'A returning customer.');
    assert.equal(body.api.base_url, t.url);
    assert.equal(body.api.knowledge_url, `${t.url}/v2/conversations/${id}/runner/knowledge`);
    assert.equal(body.api.transcript_url, `${t.url}/v2/conversations/${id}/runner/transcript`);
    assert.match(body.api.conversation_token, /^rt\./);
    assert.equal((await t.api('GET', `/v2/conversations/${id}`)).body.status, 'active');
    assert.ok(RunnerHandoff.strict().safeParse(body).success, 'the body is what the OpenAPI document says');
  });

  it("carries a trained face's rig as an absolute URL under the public URL, so the bot shows the same face", async () => {
    // Training stores the rig as a service-relative /media/ path (faces/training.ts).
    const trained = await insertFace(t, { imageUrl: '/media/mdportrait.jpg', rigUrl: '/media/mdrig.json' });
    const { palId: rigged } = await createPal(t, { pal_name: 'Collins', default_face_id: trained });
    const r = await t.api('POST', '/v2/conversations', { pal_id: rigged });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = runner.requests[0]!.body;
    assert.equal(body.pal.face_id, trained);
    // With a token bound to the conversation (media/access.ts).
    assert.match(body.pal.face_rig_url, new RegExp(`^${t.url}/media/t/fm\\.c[a-z0-9]+\\.[^/]+/mdrig\\.json$`));
    assert.ok(RunnerHandoff.strict().safeParse(body).success, 'the body is what the OpenAPI document says');
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    const schema = doc.components.schemas.RunnerHandoff;
    assert.ok(schema.properties.pal.properties.face_rig_url, 'the webhook schema documents face_rig_url');
  });

  it('documents the handoff as an OpenAPI webhook and the runner API as paths', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    assert.ok(doc.webhooks?.palRunnerHandoff?.post, 'webhook palRunnerHandoff');
    assert.ok(doc.paths['/v2/conversations/{conversation_id}/runner/knowledge']?.get);
    assert.ok(doc.paths['/v2/conversations/{conversation_id}/runner/transcript']?.post);
    assert.ok(doc.paths['/v2/daily/webhooks']?.post);
    assert.deepEqual(doc.paths['/v2/conversations/{conversation_id}/runner/knowledge'].get.security, [{ RunnerToken: [] }]);
    assert.ok(doc.paths['/v2/deployments/{deployment_id}/start'].post.responses['503']);
  });

  it('gives the runner the PAL knowledge and takes its transcript with the conversation token only', async () => {
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const other = await t.api('POST', '/v2/conversations', { pal_id: palId });
    const [mine, theirs] = runner.requests.map((q) => q.body);
    const auth = (token: string) => ({ key: null, headers: { authorization: `Bearer ${token}` } });
    const knowledge = await t.api(
      'GET',
      `/v2/conversations/${r.body.conversation_id}/runner/knowledge?query=opening%20hours`,
      undefined,
      auth(mine.api.conversation_token),
    );
    assert.equal(knowledge.status, 200, JSON.stringify(knowledge.body));
    assert.deepEqual(knowledge.body, { passages: [], memories: [] });
    assert.equal(
      (await t.api('GET', `/v2/conversations/${r.body.conversation_id}/runner/knowledge?query=x`, undefined, { key: null })).status,
      401,
    );
    assert.equal(
      (
        await t.api(
          'GET',
          `/v2/conversations/${r.body.conversation_id}/runner/knowledge?query=x`,
          undefined,
          auth(theirs.api.conversation_token),
        )
      ).status,
      401,
      'a token of another conversation',
    );
    assert.equal(
      (await t.api('GET', `/v2/conversations/${r.body.conversation_id}/runner/knowledge?query=x`)).status,
      401,
      'an API key is not a conversation token',
    );

    const entry = {
      role: 'assistant',
      content: 'Hello from Ada!',
      timestamp: Date.now() / 1000,
      seconds_from_start: 0.5,
      duration: 1.2,
      inference_id: 'inf_1',
    };
    const posted = await t.api(
      'POST',
      `/v2/conversations/${r.body.conversation_id}/runner/transcript`,
      { entries: [entry] },
      auth(mine.api.conversation_token),
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.deepEqual(posted.body, { accepted: 1 });
    assert.equal(
      (
        await t.api(
          'POST',
          `/v2/conversations/${r.body.conversation_id}/runner/transcript`,
          { entries: [{ role: 'bot' }] },
          auth(mine.api.conversation_token),
        )
      ).status,
      400,
    );
    assert.equal(other.status, 200);
  });

  it('a refusing runner ends the conversation (startup exception), deletes the room and the start answers pal_unavailable', async () => {
    runner.state.mode = 'refuse';
    const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
    assert.equal(r.status, 503);
    assert.match(r.body.error, /^pal_unavailable: /);
    const roomName = daily.calls.find((c) => c.path === '/v1/rooms')!.body.name;
    const row = await t.service.deps.db
      .selectFrom('conversations')
      .select(['status', 'shutdown_reason'])
      .where('conversation_id', '=', roomName)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'ended', shutdown_reason: 'exception_encountered_during_conversation_startup' });
    await until(() => !daily.rooms.has(roomName));
    await receiver.waitFor((b) => b.some((x) => x.conversation_id === roomName && x.event_type === 'application.transcription_ready'));
    const mine = receiver.bodies.filter((b) => b.conversation_id === roomName);
    assert.deepEqual(
      mine.map((b) => b.event_type),
      ['system.shutdown', 'application.transcription_ready'],
    );
    assert.equal(mine[0]!.properties.shutdown_reason, 'exception_encountered_during_conversation_startup');
    assert.deepEqual(mine[1]!.properties.transcript, []);
  });

  it('a deployment start with a refusing runner answers 503 pal_unavailable, which the elements show as an error', async () => {
    const d = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page' });
    await t.api('PATCH', `/v2/deployments/${d.body.deployment_id}`, [{ op: 'replace', path: '/status', value: 'active' }]);
    runner.state.mode = 'refuse';
    const failed = await t.api('POST', `/v2/deployments/${d.body.deployment_id}/start`, {}, { key: null });
    assert.equal(failed.status, 503, JSON.stringify(failed.body));
    assert.match(failed.body.error, /^pal_unavailable: /);
    // What the elements make of it: the browser API client's error code and the error screen.
    const client = new ApiClient({ apiBase: t.url });
    const error = await client.start(d.body.deployment_id, {}).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof PalClientError);
    assert.equal(error.code, 'pal_unavailable');
    assert.equal(error.status, 503);
    assert.match(error.message, /PAL could not join/);
    assert.deepEqual(startOutcome(error.code), { kind: 'error' });
    runner.state.mode = 'accept';
    const ok = await t.api('POST', `/v2/deployments/${d.body.deployment_id}/start`, {}, { key: null });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });
});

// The handoff's deadline on a clock the test moves: the runner never answers, and the start is refused once
// RUNNER_TIMEOUT_MS of the service's clock have passed, not before, with no real time waited out.
describe('PAL runner handoff, on the test clock', () => {
  it('a runner that does not answer in time counts as a refusal', async () => {
    const clock = new ManualClock();
    const daily = await startFakeDaily();
    const runner = await startFakeRunner();
    const t = await startListeningService(
      {
        PALKIT_DAILY_API_KEY: DAILY_KEY,
        PALKIT_DAILY_API_URL: daily.url,
        PALKIT_PAL_RUNNER_URL: runner.url,
        PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
      },
      { clock },
    );
    try {
      const { palId } = await createPal(t);
      runner.state.mode = 'hang';
      let answered = false;
      const started = t.api('POST', '/v2/conversations', { pal_id: palId }).finally(() => (answered = true));
      await until(() => runner.requests.length === 1);
      await clock.advance(RUNNER_TIMEOUT_MS - 1);
      assert.equal(answered, false, 'still waiting for the runner before its time is up');
      await clock.advance(1);
      const r = await started;
      assert.equal(r.status, 503);
      assert.match(r.body.error, /^pal_unavailable: /);
      const roomName = daily.calls.find((c) => c.path === '/v1/rooms')!.body.name;
      await until(() => !daily.rooms.has(roomName));
    } finally {
      await t.close();
      await Promise.all([daily.close(), runner.close()]);
    }
  });
});

describe('PAL runner configuration', () => {
  it('refuses a runner URL without its secret, and a secret that is not whsec_', () => {
    assert.throws(
      () => loadConfig({ PALKIT_PAL_RUNNER_URL: 'https://runner.example/rooms' }),
      (e: unknown) => e instanceof ConfigError && /PALKIT_PAL_RUNNER_SECRET/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ PALKIT_PAL_RUNNER_URL: 'https://runner.example/rooms', PALKIT_PAL_RUNNER_SECRET: 'plain' }),
      ConfigError,
    );
    const config = loadConfig({ PALKIT_PAL_RUNNER_URL: 'https://runner.example/rooms', PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET });
    assert.deepEqual(config.palRunner, { url: 'https://runner.example/rooms', secret: RUNNER_SECRET });
    assert.equal(loadConfig({}).palRunner, undefined);
  });

  it("without a runner (none named, palkit's own off), Daily rooms open as before and nothing is handed off", async () => {
    const daily = await startFakeDaily();
    const t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_DAILY_RUNNER_PAGES: '0',
    });
    try {
      const { palId } = await createPal(t);
      const r = await t.api('POST', '/v2/conversations', { pal_id: palId });
      assert.equal(r.status, 200);
      assert.equal(daily.calls.filter((c) => c.path === '/v1/meeting-tokens').length, 1, 'only the visitor token');
    } finally {
      await t.close();
      await daily.close();
    }
  });
});
