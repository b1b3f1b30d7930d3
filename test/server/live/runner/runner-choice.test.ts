// A PAL picks who puts it in Daily rooms (layers.daily.runner): palkit's own runner or the customer's bot
// (the handoff to PALKIT_PAL_RUNNER_URL); without a pick the service's default holds. A pick this service
// cannot honour is refused 400 when the PAL is saved, and a stored one it no longer can (its settings
// changed since) withdraws the start with 503 pal_unavailable, before anything is handed off or called back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { dailyRunnerFor, dailyRunnerRefusal } from '../../../../src/server/resources/pals/daily-runner.js';
import { DAILY_KEY, RUNNER_SECRET, startFakeDaily, startFakeRunner } from '../../../helpers/fake-daily.js';
import { createPal } from '../../../helpers/fixtures.js';
import { insertFace, startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('a PAL picks its Daily runner (layers.daily.runner)', () => {
  it("defaults to your bot when one is configured, else palkit's runner; refuses what the service lacks", () => {
    const both = loadConfig({
      PALKIT_DAILY_API_KEY: 'k',
      PALKIT_PAL_RUNNER_URL: 'https://bot.example/rooms',
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
    });
    const palkitOnly = loadConfig({ PALKIT_DAILY_API_KEY: 'k' });
    const off = loadConfig({ PALKIT_DAILY_API_KEY: 'k', PALKIT_DAILY_RUNNER_PAGES: '0' });
    assert.equal(dailyRunnerFor(both, {}), 'handoff');
    assert.equal(dailyRunnerFor(both, { daily: { runner: 'palkit' } }), 'palkit');
    assert.equal(dailyRunnerFor(palkitOnly, undefined), 'palkit');
    assert.equal(dailyRunnerFor(palkitOnly, { daily: { runner: 'handoff' } }), 'handoff');
    assert.equal(dailyRunnerRefusal(both, 'palkit'), null);
    assert.equal(dailyRunnerRefusal(both, 'handoff'), null);
    assert.match(dailyRunnerRefusal(palkitOnly, 'handoff')!, /PALKIT_PAL_RUNNER_URL is unset/);
    assert.match(dailyRunnerRefusal(off, 'palkit')!, /PALKIT_DAILY_RUNNER_PAGES is 0/);
    // A service without Daily rooms runs none: the pick waits for the day it does.
    assert.equal(dailyRunnerRefusal(loadConfig({}), 'handoff'), null);
  });

  describe("on a service with your bot configured and palkit's runner off", () => {
    let daily: Awaited<ReturnType<typeof startFakeDaily>>;
    let bot: Awaited<ReturnType<typeof startFakeRunner>>;
    let receiver: CallbackReceiver;
    let t: TestService;
    let face: string;

    before(async () => {
      [daily, bot, receiver] = await Promise.all([startFakeDaily(), startFakeRunner(), startCallbackReceiver()]);
      t = await startListeningService({
        PALKIT_DAILY_API_KEY: DAILY_KEY,
        PALKIT_DAILY_API_URL: daily.url,
        PALKIT_PAL_RUNNER_URL: bot.url,
        PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
        PALKIT_DAILY_RUNNER_PAGES: '0',
      });
      face = await insertFace(t);
    });
    after(async () => {
      await t.close();
      await Promise.all([daily.close(), bot.close(), receiver.close()]);
    });

    const pal = (daily: unknown) => ({ pal_name: 'Ada', system_prompt: 'You are Ada.', default_face_id: face, layers: { daily } });

    it('refuses a pick it cannot honour, or one it does not know, with the 400 error body', async () => {
      const off = await t.api('POST', '/v2/pals', pal({ runner: 'palkit' }));
      assert.equal(off.status, 400);
      assert.deepEqual(off.body, {
        error: "invalid_request: layers.daily.runner: palkit's runner is off on this service (PALKIT_DAILY_RUNNER_PAGES is 0)",
      });
      for (const bad of [{ runner: 'pipecat' }, { runner: 'palkit', pages: 3 }, 'palkit']) {
        const r = await t.api('POST', '/v2/pals', pal(bad));
        assert.equal(r.status, 400, JSON.stringify(bad));
        assert.equal(typeof r.body.error, 'string', JSON.stringify(r.body));
        assert.match(r.body.error, /layers/, JSON.stringify(r.body));
      }
      // A patch is checked as a whole, like a create.
      const ok = await t.api('POST', '/v2/pals', pal({ runner: 'handoff' }));
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const patched = await t.api('PATCH', `/v2/pals/${ok.body.pal_id}`, [
        { op: 'replace', path: '/layers/daily/runner', value: 'palkit' },
      ]);
      assert.equal(patched.status, 400, JSON.stringify(patched.body));
      assert.match(patched.body.error, /^invalid_request: layers\.daily\.runner: palkit's runner is off/);
    });

    it('hands the rooms of a PAL that picks handoff to your bot, its layers showing the pick', async () => {
      const created = await t.api('POST', '/v2/pals', pal({ runner: 'handoff' }));
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const read = await t.api('GET', `/v2/pals/${created.body.pal_id}`);
      assert.deepEqual(read.body.layers.daily, { runner: 'handoff' });
      const before = bot.requests.length;
      const r = await t.api('POST', '/v2/conversations', { pal_id: created.body.pal_id });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(bot.requests.length, before + 1);
      assert.equal(bot.requests.at(-1)!.body.conversation_id, r.body.conversation_id);
    });

    it('withdraws a start whose stored pick this service no longer has: 503 pal_unavailable, no room left, nothing called back', async () => {
      // Saved while palkit's runner was on here (stored directly: the API would refuse it now).
      const { palId } = await createPal(t, { definition: { layers: { daily: { runner: 'palkit' } } } });
      const handoffs = bot.requests.length;
      const r = await t.api('POST', '/v2/conversations', { pal_id: palId, callback_url: receiver.url });
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.match(r.body.error, /^pal_unavailable/);
      assert.equal(bot.requests.length, handoffs, 'not handed to your bot instead');
      const rows = await t.service.deps.db.selectFrom('conversations').select('conversation_id').where('pal_id', '=', palId).execute();
      assert.deepEqual(rows, [], 'the conversation never was');
      const opened = daily.calls.filter((c) => c.method === 'POST' && c.path === '/v1/rooms').at(-1)!;
      const name = String(opened.body.name);
      assert.ok(
        daily.calls.some((c) => c.method === 'DELETE' && c.path === `/v1/rooms/${name}`),
        "Daily's room deleted",
      );
      assert.equal(receiver.bodies.length, 0, 'no callbacks');
    });
  });
});
