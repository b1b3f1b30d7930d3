// A visitor reaches only their own memories (issue 34, item 7): memory_stores on a public start count only
// when the embedding site's backend vouches for them with a visitor token signed by the deployment's
// write-only visitor_token_secret; otherwise they are ignored (the start still succeeds, and a log line
// says why). The owner's key and the keyed API keep naming memory stores freely.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import type { LiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import { recall } from '../../../../src/server/live/agent/knowledge.js';
import { createPal } from '../../../helpers/fixtures.js';
import { KEY, startTestService, type TestService } from '../../../helpers/service.js';

const SECRET = 'site-backend-secret-0123456789abcdef';
const encode = (s: string) => new TextEncoder().encode(s);
const token = (claims: Record<string, unknown>, expires: string | number = '10m', secret = SECRET) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(expires).sign(encode(secret));

describe('visitor tokens', () => {
  let t: TestService;
  let palId: string;
  let deploymentId: string;
  const logged: string[] = [];
  before(async () => {
    t = await startTestService();
    ({ palId } = (await createPal(t)) as { palId: string });
    const d = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'landing-page', visitor_token_secret: SECRET });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    deploymentId = d.body.deployment_id;
    assert.equal(
      (await t.api('PATCH', `/v2/deployments/${deploymentId}`, [{ op: 'replace', path: '/status', value: 'active' }])).status,
      200,
    );
    // Another visitor's pinned memory, under their identifier.
    const store = await t.api('POST', '/v2/memory-stores', { participant_tag: 'visitor-4417', pal_id: palId });
    assert.equal(
      (await t.api('POST', `/v2/memory-stores/${store.body.memory_store_id}/pinned`, { memory: "the visitor's locker code is 4417" }))
        .status,
      200,
    );
    const log = t.service.deps.log;
    const info = log.info.bind(log);
    log.info = (msg, fields) => (logged.push(`${msg} ${JSON.stringify(fields)}`), info(msg, fields));
  });
  after(() => t?.close());

  /** The memory_stores a public start kept, and what the PAL would remember in that conversation. */
  async function started(body: Record<string, unknown>, key: string | null = null): Promise<{ stores: string[]; memories: string[] }> {
    const r = await t.api('POST', `/v2/deployments/${deploymentId}/start`, body, { key });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const stores = (await t.api('GET', `/v2/conversations/${r.body.conversation_id}`)).body.memory_stores as string[];
    const conv = {
      ownerId: 1,
      conversationId: r.body.conversation_id,
      pal: { palId, definition: {} },
      memoryStores: stores,
    } as unknown as LiveConversation;
    return { stores, memories: (await recall(t.service.deps, conv, 'what do you remember')).memories };
  }

  it("ignores another visitor's identifier that no token vouches for, and says so in the log", async () => {
    const before = logged.length;
    assert.deepEqual(await started({ memory_stores: ['visitor-4417'] }), { stores: [], memories: [] });
    assert.match(logged.slice(before).join('\n'), /memory_stores ignored.*"ignored":1.*no visitor_token/);
    assert.ok(!logged.join('\n').includes('visitor-4417'), 'the identifier is not logged');
  });

  it('keeps identifiers a valid token vouches for, and only those', async () => {
    assert.deepEqual(await started({ memory_stores: ['visitor-4417'], visitor_token: await token({ memory_stores: ['visitor-4417'] }) }), {
      stores: ['visitor-4417'],
      memories: ["the visitor's locker code is 4417"],
    });
    assert.deepEqual(
      (await started({ memory_stores: ['visitor-4417'], visitor_token: await token({ sub: 'visitor-4417' }) })).stores,
      ['visitor-4417'],
      'sub names one identifier',
    );
    assert.deepEqual(
      (await started({ visitor_token: await token({ sub: 'visitor-4417' }) })).stores,
      ['visitor-4417'],
      "the token's identifiers when the body names none",
    );
    assert.deepEqual((await started({ memory_stores: ['visitor-4417', 'me'], visitor_token: await token({ sub: 'me' }) })).stores, ['me']);
  });

  it('ignores expired, far-future, unsigned, foreign and malformed tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await token({ sub: 'visitor-4417' }, now - 60),
      await token({ sub: 'visitor-4417' }, now + 3 * 86_400),
      await token({ sub: 'visitor-4417' }, '10m', 'another-sites-secret-0123456789abcdef'),
      await new SignJWT({ sub: 'visitor-4417' }).setProtectedHeader({ alg: 'HS256' }).sign(encode(SECRET)), // no exp
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"sub":"visitor-4417","exp":${now + 600}}`).toString('base64url')}.`,
      'not-a-token',
    ];
    for (const visitor_token of bad)
      assert.deepEqual(await started({ memory_stores: ['visitor-4417'], visitor_token }), { stores: [], memories: [] }, visitor_token);
  });

  it("keeps them for the owner's key and on the keyed API", async () => {
    assert.deepEqual((await started({ memory_stores: ['visitor-4417'] }, KEY)).stores, ['visitor-4417']);
    const conv = await t.api('POST', '/v2/conversations', { pal_id: palId, memory_stores: ['visitor-4417'] });
    assert.equal(conv.status, 200, JSON.stringify(conv.body));
    assert.deepEqual((await t.api('GET', `/v2/conversations/${conv.body.conversation_id}`)).body.memory_stores, ['visitor-4417']);
  });

  it('keeps the secret write-only: set on create or by PATCH, never shown, refused when short', async () => {
    const shown = await t.api('GET', `/v2/deployments/${deploymentId}`);
    assert.equal(shown.body.has_visitor_token_secret, true);
    assert.ok(!JSON.stringify(shown.body).includes(SECRET));
    const stored = await t.service.deps.db
      .selectFrom('deployments')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(SECRET), 'stored encrypted');
    const short = await t.api('PATCH', `/v2/deployments/${deploymentId}`, [
      { op: 'replace', path: '/visitor_token_secret', value: 'short' },
    ]);
    assert.equal(short.status, 400);
    assert.match(short.body.error, /visitor_token_secret/);
    const rotated = 'rotated-secret-0123456789abcdef0123456789';
    const patched = await t.api('PATCH', `/v2/deployments/${deploymentId}`, [
      { op: 'replace', path: '/visitor_token_secret', value: rotated },
    ]);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.ok(!JSON.stringify(patched.body).includes(rotated));
    assert.deepEqual(
      (await started({ visitor_token: await token({ sub: 'visitor-4417' }) })).stores,
      [],
      'the old secret no longer vouches',
    );
    assert.deepEqual((await started({ visitor_token: await token({ sub: 'visitor-4417' }, '10m', rotated) })).stores, ['visitor-4417']);
    const removed = await t.api('PATCH', `/v2/deployments/${deploymentId}`, [{ op: 'remove', path: '/visitor_token_secret' }]);
    assert.equal(removed.body.has_visitor_token_secret, false);
    assert.deepEqual((await started({ visitor_token: await token({ sub: 'visitor-4417' }, '10m', rotated) })).stores, []);
  });
});
