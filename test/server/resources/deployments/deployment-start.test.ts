// Public deployment endpoints: init, start (every check in its order, limits under concurrency), CORS.
import { recall } from '../../../../src/server/live/agent/knowledge.js';
import type { LiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { createPal } from '../../../helpers/fixtures.js';
import { KEY, OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { systemClock, type Clock } from '../../../../src/server/platform/time.js';
import { FREE_FAILURES } from '../../../../src/server/resources/deployments/password-guard.js';

/** Stand-in for Cloudflare's siteverify: `good-token` passes, anything else fails; records the forms it got. */
async function startSiteverify(): Promise<{ url: string; forms: URLSearchParams[]; close(): Promise<void> }> {
  const forms: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      forms.push(form);
      const success =
        req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') &&
        form.get('secret') === 'turnstile-secret' &&
        form.get('response') === 'good-token';
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          success
            ? { success: true, 'error-codes': [], challenge_ts: new Date().toISOString(), hostname: 'example.com' }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    forms,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('public deployment endpoints', () => {
  let t: TestService;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let palId: string;
  let faceId: string;
  /**
   * The service's waits (here: the delay a repeated password failure earns) go to this while a test sets
   * it: the test sees what was asked for and decides when the wait ends, instead of timing the answers.
   */
  let sleeps: ((ms: number) => Promise<void>) | undefined;
  const clock: Clock = { ...systemClock, sleep: (ms, signal) => (sleeps ? sleeps(ms) : systemClock.sleep(ms, signal)) };
  before(async () => {
    siteverify = await startSiteverify();
    t = await startListeningService(
      {
        PALKIT_TRUST_PROXY: '1',
        PALKIT_TURNSTILE_SITE_KEY: '0x4AAAAsite',
        PALKIT_TURNSTILE_SECRET: 'turnstile-secret',
        PALKIT_TURNSTILE_VERIFY_URL: siteverify.url,
      },
      { clock },
    );
    ({ palId, faceId } = (await createPal(t)) as { palId: string; faceId: string });
  });
  after(async () => {
    await t.close();
    await siteverify.close();
  });

  /** The embedding site's secret and its backend's visitor token for these identifiers (docs/embedding.md). */
  const TOKEN_SECRET = 'site-backend-secret-0123456789abcdef';
  const visitorToken = (ids: string[]) =>
    new SignJWT({ memory_stores: ids })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(TOKEN_SECRET));

  let visitorSeq = 0;
  /** Each call gets its own client address unless one is given (the service trusts X-Forwarded-For here). */
  const start = (id: string, body: unknown = {}, headers: Record<string, string> = {}, key: string | null = null) =>
    t.api('POST', `/v2/deployments/${id}/start`, body, {
      key,
      headers: { 'x-forwarded-for': `203.0.113.${(visitorSeq++ % 250) + 1}`, ...headers },
    });
  const init = (id: string, headers: Record<string, string> = {}) =>
    t.api('GET', `/v2/deployments/${id}/init`, undefined, { key: null, headers });

  async function deployment(body: Record<string, unknown> = {}, status: 'active' | 'draft' | 'inactive' = 'active'): Promise<string> {
    const r = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', ...body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (status !== 'draft')
      assert.equal(
        (await t.api('PATCH', `/v2/deployments/${r.body.deployment_id}`, [{ op: 'replace', path: '/status', value: status }])).status,
        200,
      );
    return r.body.deployment_id;
  }

  describe('GET init', () => {
    it('returns the contract fields without the PAL id or any secret', async () => {
      const id = await deployment({
        password: 'pw-secret',
        customization: { theme: 'dark', preview: { title: 'Hi' } },
        limits: { max_call_duration: 120, daily_call_limit_per_user: 3, total_call_limit: 100 },
      });
      const r = await init(id);
      assert.equal(r.status, 200);
      assert.deepEqual(
        Object.keys(r.body).sort(),
        [
          'captcha',
          'channel',
          'customization',
          'deployment_id',
          'has_password',
          'is_available',
          'limits',
          'thumbnail_image_url',
          'thumbnail_video_url',
          'unavailable_reason',
        ].sort(),
      );
      assert.equal(r.body.deployment_id, id);
      assert.equal(r.body.channel, 'widget');
      assert.deepEqual(r.body.customization, { theme: 'dark', preview: { title: 'Hi' } });
      assert.equal(r.body.has_password, true);
      assert.equal(r.body.thumbnail_video_url, `https://cdn.example.com/${faceId}.mp4`);
      assert.deepEqual(r.body.limits, { max_call_duration: 120, daily_call_limit_per_user: 3 });
      assert.equal(r.body.captcha, null);
      assert.equal(r.body.is_available, true);
      assert.equal(r.body.unavailable_reason, null);
      const text = JSON.stringify(r.body);
      assert.ok(!text.includes(palId) && !text.includes('pw-secret') && !text.includes('scrypt'));
    });

    it('omits the thumbnails (never null) when the PAL has no face, in init and in the deployment read', async () => {
      const faceless = await createPal(t, { default_face_id: null });
      const d = await t.api('POST', '/v2/deployments', { pal_id: faceless.palId, channel: 'widget' });
      assert.equal(d.status, 200, JSON.stringify(d.body));
      for (const body of [
        d.body,
        (await t.api('GET', `/v2/deployments/${d.body.deployment_id}`)).body,
        (await init(d.body.deployment_id)).body,
      ]) {
        assert.ok(!('thumbnail_video_url' in body), JSON.stringify(body));
        assert.ok(!('thumbnail_image_url' in body), JSON.stringify(body));
      }
    });

    it('shows the captcha when enabled and a site key is configured', async () => {
      const r = await init(await deployment({ limits: { captcha_enabled: true } }));
      assert.deepEqual(r.body.captcha, { provider: 'turnstile', site_key: '0x4AAAAsite' });
    });

    it('answers 404 deployment_not_found and 400 for a malformed id', async () => {
      assert.deepEqual((await init('dnothere')).body, { error: 'deployment_not_found' });
      assert.equal((await init('dnothere')).status, 404);
      assert.equal((await init('BAD_ID')).status, 400);
    });

    it('reports why a deployment is unavailable', async () => {
      assert.equal((await init(await deployment({}, 'draft'))).body.unavailable_reason, 'inactive');
      assert.equal((await init(await deployment({}, 'inactive'))).body.is_available, false);
      assert.equal((await init(await deployment({ limits: { total_call_limit: 0 } }))).body.unavailable_reason, 'total_limit');
      assert.equal((await init(await deployment({ limits: { daily_call_limit: 0 } }))).body.unavailable_reason, 'daily_limit');
      const busy = await deployment({ limits: { max_concurrent_calls: 1 } });
      assert.equal((await start(busy)).status, 200);
      const r = await init(busy);
      assert.equal(r.body.is_available, false);
      assert.equal(r.body.unavailable_reason, 'busy');
      const perUser = await deployment({ limits: { daily_call_limit_per_user: 1 } });
      assert.equal((await start(perUser, {}, { 'x-forwarded-for': '198.51.100.7' })).status, 200);
      assert.equal((await init(perUser, { 'x-forwarded-for': '198.51.100.7' })).body.unavailable_reason, 'daily_limit');
      assert.equal((await init(perUser, { 'x-forwarded-for': '198.51.100.8' })).body.unavailable_reason, null);
    });
  });

  describe('POST start', () => {
    it("gives its conversations the deployment's disclosure policy (customization.policy), and refuses other values", async () => {
      const eu = await deployment({ customization: { policy: 'eu' } });
      const r = await start(eu, {});
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const read = await t.api('GET', `/v2/conversations/${r.body.conversation_id}`);
      assert.equal(read.body.properties.policy, 'eu');
      const plain = await start(await deployment({}), {});
      assert.equal((await t.api('GET', `/v2/conversations/${plain.body.conversation_id}`)).body.properties.policy, undefined);
      const bad = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', customization: { policy: 'us' } });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
    });

    it('creates a conversation with a meeting token and counts it in usage', async () => {
      const id = await deployment({ limits: { max_call_duration: 90 }, visitor_token_secret: TOKEN_SECRET });
      const r = await start(id, {
        conversational_context: 'Visitor is on the pricing page',
        custom_greeting: 'Hello there!',
        memory_stores: ['visitor-42'],
        visitor_token: await visitorToken(['visitor-42']),
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      // No callback address on the deployment: callback_url is omitted, not null.
      assert.deepEqual(Object.keys(r.body).sort(), [
        'conversation_id',
        'conversation_name',
        'conversation_url',
        'created_at',
        'meeting_token',
        'status',
      ]);
      assert.match(r.body.conversation_id, /^c[a-z0-9]+$/);
      assert.equal(r.body.conversation_url, `${t.url}/rooms/${r.body.conversation_id}`);
      assert.equal(r.body.status, 'active');
      assert.ok(r.body.meeting_token.startsWith(`${r.body.conversation_id}.`));
      const expiry = Number(r.body.meeting_token.split('.')[1]);
      const created = Date.parse(r.body.created_at) / 1000;
      assert.ok(expiry > created + 90 && expiry <= created + 90 + 600, 'token lives for the call plus a margin');
      const conv = await t.api('GET', `/v2/conversations/${r.body.conversation_id}`);
      assert.equal(conv.body.deployment_id, id);
      assert.equal(conv.body.pal_id, palId);
      assert.equal(conv.body.conversational_context, 'Visitor is on the pricing page');
      assert.equal(conv.body.custom_greeting, 'Hello there!');
      assert.deepEqual(conv.body.memory_stores, ['visitor-42']);
      assert.equal(conv.body.properties.max_call_duration, 90);
      const d = await t.api('GET', `/v2/deployments/${id}`);
      assert.equal(d.body.usage_total, 1);
      assert.equal(d.body.usage_today, 1);
    });

    it('passes participant_left_timeout from the limits to the conversation, and refuses bad values', async () => {
      const id = await deployment({ limits: { participant_left_timeout: 0 } });
      const r = await start(id);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const conv = await t.api('GET', `/v2/conversations/${r.body.conversation_id}`);
      assert.equal(conv.body.properties.participant_left_timeout, 0);
      const plain = await start(await deployment({}));
      assert.equal(
        (await t.api('GET', `/v2/conversations/${plain.body.conversation_id}`)).body.properties.participant_left_timeout,
        undefined,
        'the room default applies',
      );
      for (const bad of [-1, 1.5, 4000, '10']) {
        const refused = await t.api('POST', '/v2/deployments', {
          pal_id: palId,
          channel: 'widget',
          limits: { participant_left_timeout: bad },
        });
        assert.equal(refused.status, 400, `participant_left_timeout ${JSON.stringify(bad)}`);
      }
    });

    it('refuses a missing deployment (404) and an inactive one (403) before anything else', async () => {
      const missing = await start('dnothere', { password: 'x' });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: 'deployment_not_found' });
      for (const status of ['draft', 'inactive'] as const) {
        const id = await deployment({ password: 'pw', limits: { captcha_enabled: true }, allowed_origins: ['https://ok.example'] }, status);
        const r = await start(id, {}, { origin: 'https://evil.example' });
        assert.equal(r.status, 403);
        assert.deepEqual(r.body, { error: 'deployment_inactive' });
      }
    });

    it("lets only the allowed origins (and the service's own) load a widget or embed: init from elsewhere is 403 origin_not_allowed", async () => {
      for (const channel of ['widget', 'embed']) {
        const id = await deployment({ channel, allowed_origins: ['https://shop.example'] });
        const evil = await init(id, { origin: 'https://evil.example' });
        assert.equal(evil.status, 403);
        assert.deepEqual(evil.body, { error: 'origin_not_allowed' });
        assert.equal((await init(id, { origin: 'https://shop.example' })).status, 200);
        assert.equal((await init(id, { origin: new URL(t.url).origin })).status, 200);
        assert.equal((await init(id)).status, 200, 'no Origin header: not a page on another site');
      }
      const landing = await deployment({ channel: 'landing-page', allowed_origins: ['https://shop.example'] });
      assert.equal((await init(landing, { origin: 'https://elsewhere.example' })).status, 200, 'landing pages are not origin-checked');
    });

    it("checks the Origin for widget and embed, always allowing the service's own origin", async () => {
      for (const channel of ['widget', 'embed']) {
        const id = await deployment({ channel, password: 'pw', allowed_origins: ['https://shop.example', 'http://localhost:5173'] });
        const evil = await start(id, {}, { origin: 'https://evil.example' });
        assert.equal(evil.status, 403);
        assert.deepEqual(evil.body, { error: 'origin_not_allowed' }, 'origin is checked before the password');
        assert.deepEqual((await start(id, {})).body, { error: 'origin_not_allowed' }, 'no Origin header');
        assert.deepEqual((await start(id, {}, { origin: 'https://shop.example' })).body, { error: 'password_required' });
        assert.equal((await start(id, { password: 'pw' }, { origin: 'http://localhost:5173' })).status, 200);
        assert.equal((await start(id, { password: 'pw' }, { origin: new URL(t.url).origin })).status, 200);
      }
      const landing = await deployment({ channel: 'landing-page', allowed_origins: ['https://shop.example'] });
      assert.equal((await start(landing, {}, { origin: 'https://elsewhere.example' })).status, 200, 'landing pages are not origin-checked');
      const open = await deployment({});
      assert.equal((await start(open, {}, { origin: 'https://anyone.example' })).status, 200, 'an empty list allows any origin');
    });

    it('asks for the password, refuses a wrong one, accepts the right one', async () => {
      const id = await deployment({ password: 'correct horse' });
      assert.deepEqual((await start(id, {})).body, { error: 'password_required' });
      assert.deepEqual((await start(id, { password: '' })).body, { error: 'password_required' });
      assert.deepEqual((await start(id, { password: null })).body, { error: 'password_required' });
      const wrong = await start(id, { password: 'battery staple' });
      assert.equal(wrong.status, 403);
      assert.deepEqual(wrong.body, { error: 'invalid_password' });
      assert.equal((await start(id, { password: 'correct horse' })).status, 200);
    });

    it('slows repeated password failures from one address, then refuses them with 429 and Retry-After', async () => {
      const id = await deployment({ password: 'right' });
      const attacker = { 'x-forwarded-for': '192.0.2.66' };
      // The wait each answer was held for, as asked of the service's clock (ended at once, but for one).
      const waited: number[] = [];
      let asked = 0;
      let held: (() => void) | undefined;
      let refused: Awaited<ReturnType<typeof start>> | undefined;
      try {
        for (let i = 0; i < 12 && !refused; i++) {
          asked = 0;
          sleeps = async (ms) => {
            asked += ms;
            // One slowed answer is held until the test lets its wait end: the answer waits for it.
            if (i === FREE_FAILURES + 1) await new Promise<void>((resolve) => (held = resolve));
          };
          let answered = false;
          const answer = start(id, { password: `guess-${i}` }, attacker).finally(() => (answered = true));
          if (i === FREE_FAILURES + 1) {
            await waitFor(() => held, { what: 'the slowed attempt to wait' });
            assert.equal(answered, false, 'no answer while the delay runs');
            held!();
          }
          const r = await answer;
          waited.push(asked);
          if (r.status === 429) refused = r;
          else assert.deepEqual(r.body, { error: 'invalid_password' });
        }
      } finally {
        sleeps = undefined;
      }
      assert.ok(refused, 'locked out');
      assert.deepEqual(refused.body, { error: 'too_many_attempts' });
      assert.ok(Number(refused.headers.get('retry-after')) > 60);
      assert.ok(Math.max(...waited.slice(4)) > Math.max(...waited.slice(0, 2)) + 100, `later failures are slowed: ${waited.join(',')} ms`);
      // Even the right password is refused while locked out; another address is not affected.
      assert.equal((await start(id, { password: 'right' }, attacker)).status, 429);
      assert.equal((await start(id, { password: 'right' }, { 'x-forwarded-for': '192.0.2.67' })).status, 200);
      // The counters are in the database, so every instance sees them.
      const rows = await t.service.deps.db.selectFrom('deployment_password_attempts').selectAll().where('deployment_id', '=', id).execute();
      assert.equal(rows.length, 1);
      assert.ok(rows[0]!.blocked_until && rows[0]!.blocked_until.getTime() > Date.now());
    });

    it('verifies the captcha server-side before the password, so every guess needs a solved challenge', async () => {
      const id = await deployment({ password: 'pw', limits: { captcha_enabled: true } });
      assert.deepEqual((await start(id, { password: 'wrong' })).body, { error: 'captcha_required' });
      assert.deepEqual((await start(id, { captcha_token: 'good-token' })).body, { error: 'password_required' });
      const guesser = { 'x-forwarded-for': '198.51.100.78' };
      const before = siteverify.forms.length;
      const failed = await start(id, { password: 'wrong', captcha_token: 'bad-token' }, { 'x-forwarded-for': '198.51.100.77' });
      assert.equal(failed.status, 403);
      assert.deepEqual(failed.body, { error: 'captcha_failed' });
      const form = siteverify.forms[before]!;
      assert.equal(form.get('secret'), 'turnstile-secret');
      assert.equal(form.get('response'), 'bad-token');
      assert.equal(form.get('remoteip'), '198.51.100.77');
      // Guesses without a solved challenge are not checked, so they cost no attempt either.
      for (let i = 0; i < 10; i++)
        assert.deepEqual((await start(id, { password: `guess-${i}`, captcha_token: 'bad-token' }, guesser)).body, {
          error: 'captcha_failed',
        });
      const attempts = await t.service.deps.db
        .selectFrom('deployment_password_attempts')
        .selectAll()
        .where('deployment_id', '=', id)
        .execute();
      assert.deepEqual(attempts, [], 'no password was checked');
      assert.deepEqual((await start(id, { password: 'wrong', captcha_token: 'good-token' }, guesser)).body, { error: 'invalid_password' });
      assert.equal((await start(id, { password: 'pw', captcha_token: 'good-token' }, guesser)).status, 200);
    });

    it('requires consent where the deployment asks for it and keeps a receipt of the accepted terms', async () => {
      const terms = 'I agree that this call is with an AI and may be reviewed for quality.';
      const id = await deployment({ customization: { consent: { required: true, text: terms, terms_url: 'https://example.com/terms' } } });
      assert.deepEqual((await start(id, {})).body, { error: 'consent_required' });
      const stale = await start(id, { accepted_terms: 'I agree to the old terms.' });
      assert.equal(stale.status, 403);
      assert.deepEqual(stale.body, { error: 'consent_required: the terms changed; show them again' });
      const before = Date.now();
      const ok = await start(id, { accepted_terms: terms });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const read = await t.api('GET', `/v2/conversations/${ok.body.conversation_id}?verbose=true`);
      assert.deepEqual(
        { ...read.body.receipt.consent, accepted_at: undefined },
        { text: terms, terms_url: 'https://example.com/terms', accepted_at: undefined },
      );
      assert.ok(Date.parse(read.body.receipt.consent.accepted_at) >= before - 1000);
      // Without required consent nothing is asked and nothing is kept.
      const plain = await start(await deployment({ customization: { consent: { required: false, text: terms } } }), {});
      assert.equal(plain.status, 200);
      assert.equal((await t.api('GET', `/v2/conversations/${plain.body.conversation_id}?verbose=true`)).body.receipt, null);
      // The non-verbose read does not carry it.
      assert.equal('receipt' in (await t.api('GET', `/v2/conversations/${ok.body.conversation_id}`)).body, false);
    });

    describe('the password step (POST gate)', () => {
      const gate = (id: string, body: unknown, headers: Record<string, string> = {}) =>
        t.api('POST', `/v2/deployments/${id}/gate`, body, { key: null, headers: { 'x-forwarded-for': '203.0.113.200', ...headers } });

      it('says at once whether the password is right, and its pass starts the call without the password', async () => {
        const id = await deployment({ password: 'open sesame' });
        assert.deepEqual((await gate(id, {})).body, { error: 'password_required' });
        assert.deepEqual((await gate(id, { password: '' })).body, { error: 'password_required' });
        const wrong = await gate(id, { password: 'open barley' });
        assert.equal(wrong.status, 403);
        assert.deepEqual(wrong.body, { error: 'invalid_password' });
        const passed = await gate(id, { password: 'open sesame' });
        assert.equal(passed.status, 200, JSON.stringify(passed.body));
        assert.deepEqual(Object.keys(passed.body).sort(), ['expires_at', 'gate_pass']);
        const minutes = (Date.parse(passed.body.expires_at) - Date.now()) / 60_000;
        assert.ok(minutes > 14 && minutes <= 15, `valid for 15 minutes, got ${minutes}`);
        assert.ok(!JSON.stringify(passed.body).includes('open sesame'));
        assert.equal((await start(id, { gate_pass: passed.body.gate_pass })).status, 200);
        // A pass is for its deployment only, cannot be forged, and ends when the password changes.
        const other = await deployment({ password: 'open sesame' });
        assert.deepEqual((await start(other, { gate_pass: passed.body.gate_pass })).body, { error: 'password_required' });
        const [expiry] = passed.body.gate_pass.split('.');
        assert.deepEqual((await start(id, { gate_pass: `${Number(expiry) + 3600}.${passed.body.gate_pass.split('.')[1]}` })).body, {
          error: 'password_required',
        });
        assert.deepEqual((await start(id, { gate_pass: 'not-a-pass' })).body, { error: 'password_required' });
        assert.equal(
          (await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/password', value: 'new words' }])).status,
          200,
        );
        assert.deepEqual((await start(id, { gate_pass: passed.body.gate_pass })).body, { error: 'password_required' });
      });

      it('counts its guesses in the same lockout as start', async () => {
        const id = await deployment({ password: 'right' });
        const attacker = { 'x-forwarded-for': '192.0.2.90' };
        let status = 0;
        sleeps = () => Promise.resolve(); // the delays earned (their own test above) end at once
        try {
          for (let i = 0; i < 12 && status !== 429; i++) status = (await gate(id, { password: `guess-${i}` }, attacker)).status;
        } finally {
          sleeps = undefined;
        }
        assert.equal(status, 429, 'locked out at the gate');
        assert.deepEqual((await start(id, { password: 'right' }, attacker)).body, { error: 'too_many_attempts' });
      });

      it('checks the captcha first, and refuses what start refuses', async () => {
        const id = await deployment({ password: 'pw', limits: { captcha_enabled: true }, allowed_origins: ['https://ok.example'] });
        const page = { origin: 'https://ok.example' };
        assert.deepEqual((await gate(id, { password: 'pw' }, page)).body, { error: 'captcha_required' });
        assert.deepEqual((await gate(id, { password: 'pw', captcha_token: 'bad-token' }, page)).body, { error: 'captcha_failed' });
        assert.deepEqual((await gate(id, { password: 'pw', captcha_token: 'good-token' }, { origin: 'https://evil.example' })).body, {
          error: 'origin_not_allowed',
        });
        const passed = await gate(id, { password: 'pw', captcha_token: 'good-token' }, page);
        assert.equal(passed.status, 200);
        // The pass stands in for the single-use captcha token too.
        assert.equal((await start(id, { gate_pass: passed.body.gate_pass }, page)).status, 200);
        assert.deepEqual((await gate('dnothere', { password: 'pw' })).body, { error: 'deployment_not_found' });
        for (const body of ['{"password":', [], { password: 5 }, { captcha_token: 'x'.repeat(5000) }])
          assert.equal((await gate(id, body, page)).status, 400);
      });
    });

    it('enforces total, daily, per-visitor and concurrency limits with their own codes', async () => {
      const total = await deployment({ limits: { total_call_limit: 2 } });
      assert.equal((await start(total)).status, 200);
      assert.equal((await start(total)).status, 200);
      const over = await start(total);
      assert.equal(over.status, 429);
      assert.deepEqual(over.body, { error: 'total_limit' });

      const daily = await deployment({ limits: { daily_call_limit: 1 } });
      assert.equal((await start(daily)).status, 200);
      const dailyOver = await start(daily);
      assert.deepEqual(dailyOver.body, { error: 'daily_limit' });
      assert.ok(Number(dailyOver.headers.get('retry-after')) > 0);

      const perUser = await deployment({ limits: { daily_call_limit_per_user: 2 } });
      const me = { 'x-forwarded-for': '198.51.100.20' };
      assert.equal((await start(perUser, {}, me)).status, 200);
      assert.equal((await start(perUser, {}, me)).status, 200);
      assert.deepEqual((await start(perUser, {}, me)).body, { error: 'daily_limit' });
      assert.equal((await start(perUser, {}, { 'x-forwarded-for': '198.51.100.21' })).status, 200, 'another visitor still may');

      const busy = await deployment({ limits: { max_concurrent_calls: 1 } });
      const first = await start(busy);
      assert.equal(first.status, 200);
      assert.deepEqual((await start(busy)).body, { error: 'busy' });
      assert.equal((await t.api('POST', `/v2/conversations/${first.body.conversation_id}/end`)).status, 200);
      assert.equal((await start(busy)).status, 200, 'the ended call frees its slot');
    });

    it('gives the last slot to exactly one of many concurrent starts', async () => {
      for (const limits of [{ total_call_limit: 3 }, { max_concurrent_calls: 2 }, { daily_call_limit: 1 }]) {
        const id = await deployment({ limits });
        const results = await Promise.all(Array.from({ length: 12 }, () => start(id)));
        const ok = results.filter((r) => r.status === 200).length;
        const expected = Object.values(limits)[0]!;
        assert.equal(ok, expected, `${JSON.stringify(limits)}: ${results.map((r) => r.status).join(',')}`);
        assert.ok(results.every((r) => r.status === 200 || r.status === 429));
        assert.equal((await t.api('GET', `/v2/deployments/${id}`)).body.usage_total, expected);
      }
    });

    it('starts from the deployment as it is now, never from a copy kept on this instance', async () => {
      // Another instance's change reaches this one only through the database: a PATCH here does the same
      // (it does not tell the copy a start keeps), so each change below is made while a copy is kept.
      const pal = (await createPal(t, { pal_name: 'Before' })) as { palId: string; faceId: string };
      const r0 = await t.api('POST', '/v2/deployments', {
        pal_id: pal.palId,
        channel: 'widget',
        allowed_origins: ['https://shop.example'],
      });
      const id = r0.body.deployment_id as string;
      const patch = async (ops: unknown[]) => assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, ops)).status, 200);
      await patch([{ op: 'replace', path: '/status', value: 'active' }]);
      const shop = { origin: 'https://shop.example' };
      const other = { origin: 'https://other.example' };
      const started = async (headers: Record<string, string>) => {
        const r = await start(id, {}, headers);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body;
      };
      await started(shop);
      assert.equal((await started(shop)).conversation_name, 'Conversation with Before');

      await patch([{ op: 'replace', path: '/allowed_origins', value: ['https://other.example'] }]);
      assert.deepEqual((await start(id, {}, shop)).body, { error: 'origin_not_allowed' });
      await started(other); // allowed at once, although the copy refused it
      await started(other);

      await patch([{ op: 'add', path: '/password', value: 'pw' }]);
      assert.deepEqual((await start(id, {}, other)).body, { error: 'password_required' });
      await patch([{ op: 'remove', path: '/password' }]);
      await started(other);

      await patch([{ op: 'replace', path: '/status', value: 'inactive' }]);
      assert.deepEqual((await start(id, {}, other)).body, { error: 'deployment_inactive' });
      await patch([{ op: 'replace', path: '/status', value: 'active' }]);
      await started(other);

      const used = (await t.api('GET', `/v2/deployments/${id}`)).body.usage_total as number;
      await patch([{ op: 'replace', path: '/limits', value: { total_call_limit: used } }]);
      assert.deepEqual((await start(id, {}, other)).body, { error: 'total_limit' });
      await patch([{ op: 'replace', path: '/limits', value: {} }]);
      await started(other);

      // The PAL and its face, which the deployment's version does not follow.
      const { db } = t.service.deps;
      await db.updateTable('pals').set({ pal_name: 'After' }).where('pal_id', '=', pal.palId).execute();
      assert.equal((await started(other)).conversation_name, 'Conversation with After');
      await db.updateTable('faces').set({ status: 'training' }).where('face_id', '=', pal.faceId).execute();
      const notReady = await start(id, {}, other);
      assert.equal(notReady.status, 400);
      assert.match(notReady.body.error, /is not ready/);
      await db.updateTable('faces').set({ status: 'completed' }).where('face_id', '=', pal.faceId).execute();
      await started(other);
      assert.equal((await t.api('GET', `/v2/deployments/${id}`)).body.usage_total, used + 3);
    });

    it("memory_stores are visitor identifiers: a returning visitor's pinned memories reach the PAL", async () => {
      const other = await createPal(t);
      const mem = async (body: Record<string, unknown>, memory: string) => {
        const s = await t.api('POST', '/v2/memory-stores', body);
        assert.equal(s.status, 200, JSON.stringify(s.body));
        assert.equal((await t.api('POST', `/v2/memory-stores/${s.body.memory_store_id}/pinned`, { memory })).status, 200);
        return s.body;
      };
      // A PAL-specific store for visitor "mara" (an identifier that also looks like a store id).
      const palStore = await mem({ participant_tag: 'mara', pal_id: palId }, 'Mara prefers tea');
      assert.equal(palStore.participant_tag, 'mara');
      assert.equal(palStore.pal_id, palId);
      await mem({ participant_tag: 'mara', pal_id: other.palId }, 'Mara told the other PAL a secret');
      // Tag-based (legacy) memories of two visitors.
      await mem({ participant_tag: 'visitor-legacy' }, 'Legacy visitor likes jazz');
      await mem({ participant_tag: 'household-9' }, 'Household 9 has a dog');
      assert.equal((await t.api('POST', '/v2/memory-stores', { participant_tag: 'mara', pal_id: palId })).status, 409);
      assert.equal((await t.api('POST', '/v2/memory-stores', { participant_tag: 'x', pal_id: 'pnothere' })).status, 400);

      const id = await deployment({ visitor_token_secret: TOKEN_SECRET });
      const recalled = async (values: string[]) => {
        const r = await start(id, { memory_stores: values, visitor_token: await visitorToken(values) });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const stored = await t.api('GET', `/v2/conversations/${r.body.conversation_id}`);
        assert.deepEqual(stored.body.memory_stores, values);
        const conv = {
          ownerId: 1,
          conversationId: r.body.conversation_id,
          pal: { palId, definition: {} },
          memoryStores: values,
        } as unknown as LiveConversation;
        return (await recall(t.service.deps, conv, 'what do you remember')).memories.sort();
      };
      assert.deepEqual(await recalled(['mara']), ['Mara prefers tea'], 'single value: the PAL-specific store of that participant');
      assert.deepEqual(await recalled(['visitor-legacy']), ['Legacy visitor likes jazz'], 'a visitor with legacy memory: tag-based');
      assert.deepEqual(
        await recalled(['visitor-legacy', 'household-9', 'mara']),
        ['Household 9 has a dog', 'Legacy visitor likes jazz'],
        'several values: tag-based memories',
      );
      assert.deepEqual(await recalled(['newcomer']), []);
    });

    it('refuses a memory_store_id in memory_stores (after the limits) and accepts visitor tags', async () => {
      const store = await t.api('POST', '/v2/memory-stores', { memory_store_id: 'mvisitorstore1' });
      assert.equal(store.status, 200);
      const id = await deployment({});
      const r = await start(id, { memory_stores: ['mvisitorstore1'] });
      assert.equal(r.status, 400);
      assert.match(r.body.error, /^invalid_request: memory_stores/);
      assert.equal((await start(id, { memory_stores: ['mvisitor2'] })).status, 200, 'looks like an id but names no store');
      const limited = await deployment({ limits: { total_call_limit: 0 } });
      assert.deepEqual((await start(limited, { memory_stores: ['mvisitorstore1'] })).body, { error: 'total_limit' });
      const rows = await t.service.deps.db.selectFrom('conversations').select('conversation_id').where('deployment_id', '=', id).execute();
      assert.equal(rows.length, 1, 'the refused start wrote nothing');
    });

    it("lets only the owner's key override the PAL for a preview", async () => {
      const id = await deployment({});
      const other = await createPal(t, { pal_name: 'Preview PAL' });
      const anonymous = await start(id, { pal_id: other.palId });
      assert.equal(anonymous.status, 403);
      assert.deepEqual(anonymous.body, { error: 'preview_requires_owner_key' });
      assert.equal((await start(id, { pal_id: other.palId }, {}, OTHER_KEY)).status, 403);
      assert.equal((await start(id, { pal_id: other.palId }, {}, 'not-a-key')).status, 403);
      const preview = await start(id, { pal_id: other.palId }, {}, KEY);
      assert.equal(preview.status, 200);
      assert.equal((await t.api('GET', `/v2/conversations/${preview.body.conversation_id}`)).body.pal_id, other.palId);
      const foreign = await createPal(t, { owner: 2 });
      assert.equal((await start(id, { pal_id: foreign.palId }, {}, KEY)).status, 400);
    });

    it('answers 400 for bad input, never 500', async () => {
      const id = await deployment({});
      const bodies: unknown[] = [
        '{"password":',
        [],
        'null',
        { password: 5 },
        { memory_stores: 'visitor' },
        { memory_stores: [1] },
        { conversational_context: { a: 1 } },
        { captcha_token: 42 },
        { pal_id: '' },
      ];
      for (const body of bodies) {
        const r = await start(id, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(typeof r.body.error, 'string');
      }
      assert.equal((await start('NOPE', {})).status, 400);
    });
  });

  describe('CORS', () => {
    it('answers preflights and lets every page read the answers, refusing starts from other origins', async () => {
      const id = await deployment({ allowed_origins: ['https://shop.example'] });
      const pre = await fetch(`${t.url}/v2/deployments/${id}/start`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://shop.example');
      assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
      assert.match(pre.headers.get('access-control-allow-headers')!, /content-type/);
      assert.match(pre.headers.get('vary')!, /Origin/);
      const other = await fetch(`${t.url}/v2/deployments/${id}/start`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      assert.equal(other.headers.get('access-control-allow-origin'), 'https://evil.example');

      const ok = await init(id, { origin: 'https://shop.example' });
      assert.equal(ok.headers.get('access-control-allow-origin'), 'https://shop.example');
      assert.match(ok.headers.get('vary')!, /Origin/);
      assert.equal((await init(id, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin'), 'https://evil.example');
      const started = await start(id, {}, { origin: 'https://shop.example' });
      assert.equal(started.headers.get('access-control-allow-origin'), 'https://shop.example');
      const refused = await start(id, {}, { origin: 'https://evil.example' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'origin_not_allowed');
      // Readable by the page, so the element can show why.
      assert.equal(refused.headers.get('access-control-allow-origin'), 'https://evil.example');
      assert.match(refused.headers.get('vary')!, /Origin/);
    });

    it('allows any origin when the list is empty, also on errors', async () => {
      const id = await deployment({ limits: { total_call_limit: 0 } });
      const r = await start(id, {}, { origin: 'https://anywhere.example' });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('access-control-allow-origin'), 'https://anywhere.example');
      assert.match(r.headers.get('access-control-expose-headers')!, /Retry-After/);
      assert.equal(
        (await init(id, { origin: 'https://anywhere.example' })).headers.get('access-control-allow-origin'),
        'https://anywhere.example',
      );
      assert.equal(
        (await init('dmissing', { origin: 'https://anywhere.example' })).headers.get('access-control-allow-origin'),
        'https://anywhere.example',
      );
    });
  });
});

describe('public deployment endpoints without proxy trust or a captcha site key', () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService();
  });
  after(() => t.close());

  it('keys visitors by the socket address, ignoring X-Forwarded-For, and shows no captcha', async () => {
    const { palId } = await createPal(t);
    const d = await t.api('POST', '/v2/deployments', {
      pal_id: palId,
      channel: 'embed',
      limits: { daily_call_limit_per_user: 1, captcha_enabled: true },
    });
    const id = d.body.deployment_id;
    await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }]);
    assert.equal((await t.api('GET', `/v2/deployments/${id}/init`, undefined, { key: null })).body.captcha, null);
    const one = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null, headers: { 'x-forwarded-for': '1.2.3.4' } });
    assert.equal(one.status, 200, 'no captcha check without a site key');
    const two = await t.api('POST', `/v2/deployments/${id}/start`, {}, { key: null, headers: { 'x-forwarded-for': '5.6.7.8' } });
    assert.equal(two.status, 429);
    assert.deepEqual(two.body, { error: 'daily_limit' });
  });
});
