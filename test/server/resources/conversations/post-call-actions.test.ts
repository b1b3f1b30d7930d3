// Post-call actions: the HTTP requests a PAL makes once after each conversation (layers.post_call_actions),
// run as durable jobs through the guarded fetch when the conversation is finalized, each reported as
// application.post_call_action_executed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { finalizeConversation } from '../../../../src/server/live/room/finalize.js';
import { ConversationCallback } from '../../../../src/protocol/callbacks.js';
import { insertConversation, insertFace, insertPal, startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('post-call actions', () => {
  let t: TestService;
  let callbacks: CallbackReceiver;
  let target: Receiver;
  before(async () => {
    t = await startListeningService({ PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8' });
    callbacks = await startCallbackReceiver();
    target = await startReceiver();
    target.respond = (r) => (r.path === '/broken' ? 500 : 200);
  });
  after(async () => {
    await t.close();
    await callbacks.close();
    await target.close();
  });

  it('validates the actions on the PAL', async () => {
    const face = await insertFace(t);
    const pal = { pal_name: 'Post', system_prompt: 'Hi.', default_face_id: face };
    for (const bad of [
      [{ url: `${target.url}/x` }],
      [{ tool_name: 'x', url: 'ftp://example.com' }],
      [{ tool_name: 'x', url: `${target.url}/x`, method: 'TRACE' }],
    ]) {
      const r = await t.api('POST', '/v2/pals', { ...pal, layers: { post_call_actions: bad } });
      assert.equal(r.status, 400, JSON.stringify(bad));
    }
    assert.equal(
      (await t.api('POST', '/v2/pals', { ...pal, layers: { post_call_actions: [{ tool_name: 'CRM', url: `${target.url}/crm` }] } })).status,
      200,
    );
  });

  it('runs each action once after the call and reports it with the spec fields', async () => {
    const palId = await insertPal(t, {
      pipelineMode: 'echo',
      faceId: await insertFace(t),
      definition: {
        layers: {
          post_call_actions: [
            { tool_id: 'crm_sync', tool_name: 'CRM sync', url: `${target.url}/crm`, method: 'POST', body: { lead: 'warm' } },
            { tool_name: 'Broken hook', url: `${target.url}/broken`, method: 'PUT' },
          ],
        },
      },
    });
    const room = await insertConversation(t, { palId, callbackUrl: callbacks.url });
    const db = t.service.deps.db;
    await db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: 'end_conversation_endpoint_hit', ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    await finalizeConversation(t.service.deps, room.conversationId);
    assert.equal(await finalizeConversation(t.service.deps, room.conversationId), null, 'finalized once');

    const executed = () =>
      callbacks.bodies.filter((b) => b.conversation_id === room.conversationId && b.event_type === 'application.post_call_action_executed');
    await callbacks.waitFor(() => executed().length >= 2, 15_000);
    const byTool = Object.fromEntries(executed().map((b) => [b.properties.tool_id, b]));
    assert.equal(byTool.crm_sync!.message_type, 'application');
    assert.deepEqual(byTool.crm_sync!.properties, {
      tool_id: 'crm_sync',
      tool_name: 'CRM sync',
      status: 'success',
      request: { url: `${target.url}/crm`, method: 'POST', body: { lead: 'warm' } },
      response: { http_status: 200, body: byTool.crm_sync!.properties.response.body },
    });
    assert.equal(byTool.post_call_1!.properties.status, 'failed');
    assert.equal(byTool.post_call_1!.properties.response.http_status, 500);
    assert.deepEqual(byTool.post_call_1!.properties.request, {
      url: `${target.url}/broken`,
      method: 'PUT',
      body: { conversation_id: room.conversationId },
    });
    const crm = target.received.filter((r) => r.path === '/crm');
    assert.equal(crm.length, 1);
    assert.deepEqual(crm[0]!.body, { lead: 'warm' });
    await t.service.deps.jobs.drain(); // every action job has run: none runs twice
    assert.equal(executed().length, 2, 'once per action');
    assert.equal(target.received.filter((r) => r.path === '/crm').length, 1);
  });

  it('keeps a URL with a credential in it write-only: masked when read and reported, called as given (issue 52, N29)', async () => {
    const secret = 'S3CR3Tq7Zx9w';
    const created = await t.api('POST', '/v2/pals', {
      pal_name: 'Sealed',
      system_prompt: 'Hi.',
      pipeline_mode: 'echo',
      default_face_id: await insertFace(t),
      layers: { post_call_actions: [{ tool_id: 'hook', tool_name: 'Hook', url: `${target.url}/sealed?token=${secret}` }] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const palId = created.body.pal_id as string;
    const shown = await t.api('GET', `/v2/pals/${palId}`);
    assert.ok(!JSON.stringify(shown.body).includes(secret), JSON.stringify(shown.body.layers));
    // The shown layers sent back keep the stored URL.
    assert.equal((await t.api('PATCH', `/v2/pals/${palId}`, [{ op: 'replace', path: '/layers', value: shown.body.layers }])).status, 200);
    const room = await insertConversation(t, { palId, callbackUrl: callbacks.url });
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: 'end_conversation_endpoint_hit', ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    await finalizeConversation(t.service.deps, room.conversationId);
    const executed = () =>
      callbacks.bodies.filter((b) => b.conversation_id === room.conversationId && b.event_type === 'application.post_call_action_executed');
    await callbacks.waitFor(() => executed().length >= 1, 15_000);
    assert.equal(executed()[0]!.properties.status, 'success');
    assert.ok(!JSON.stringify(executed()[0]).includes(secret), 'the report names the URL without its token');
    assert.equal(target.received.filter((r) => r.path === `/sealed?token=${secret}`).length, 1, 'the action called the URL as given');
  });

  it('an action whose address cannot be reached is reported with http_status 0, which the callback parser accepts', async () => {
    const closed = await startReceiver();
    const deadUrl = `${closed.url}/gone`;
    await closed.close(); // nothing listens there any more
    const palId = await insertPal(t, {
      pipelineMode: 'echo',
      faceId: await insertFace(t),
      definition: { layers: { post_call_actions: [{ tool_id: 'dead', tool_name: 'Dead hook', url: deadUrl }] } },
    });
    const room = await insertConversation(t, { palId, callbackUrl: callbacks.url });
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: 'end_conversation_endpoint_hit', ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    await finalizeConversation(t.service.deps, room.conversationId);
    const executed = () =>
      callbacks.bodies.find((b) => b.conversation_id === room.conversationId && b.event_type === 'application.post_call_action_executed');
    await callbacks.waitFor(() => executed() !== undefined, 15_000);
    const body = executed()!;
    assert.equal(body.properties.status, 'error');
    assert.equal(body.properties.response.http_status, 0);
    assert.equal(typeof body.properties.response.body, 'string');
    const parsed = ConversationCallback.safeParse(body);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });
});
