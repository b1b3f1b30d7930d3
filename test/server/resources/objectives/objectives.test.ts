// Objectives: the keyed endpoints, tracking in a conversation of a PAL that has them attached through
// objectives_id, and the objective callback sent once when all output variables are captured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPal } from '../../../helpers/fixtures.js';
import { startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';

describe('objectives', () => {
  let t: TestService;
  let receiver: Receiver;
  before(async () => {
    t = await startTestService();
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('creates, lists, reads and deletes objectives; refuses bad bodies', async () => {
    const created = await t.api('POST', '/v2/objectives', {
      name: 'Intake',
      data: [{ objective_name: 'contact', output_variables: ['email'] }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.match(created.body.objectives_id, /^o[a-z0-9]+$/);
    assert.deepEqual(created.body.data, [{ objective_name: 'contact', output_variables: ['email'] }]);
    assert.equal((await t.api('GET', `/v2/objectives/${created.body.objectives_id}`)).body.name, 'Intake');
    assert.ok(
      (await t.api('GET', '/v2/objectives')).body.data.some(
        (o: { objectives_id: string }) => o.objectives_id === created.body.objectives_id,
      ),
    );
    assert.equal((await t.api('GET', `/v2/objectives/${created.body.objectives_id}`, undefined, { key: OTHER_KEY })).status, 404);
    for (const bad of [
      {},
      { data: [] },
      { data: [{ objective_name: 'x', output_variables: [] }] },
      { data: [{ objective_name: 'x', output_variables: ['has space'] }] },
      {
        data: [
          { objective_name: 'x', output_variables: ['a'] },
          { objective_name: 'x', output_variables: ['b'] },
        ],
      },
    ]) {
      assert.equal((await t.api('POST', '/v2/objectives', bad)).status, 400, JSON.stringify(bad));
    }
    const face = (await createPal(t)).faceId;
    const pal = { pal_name: 'With objectives', system_prompt: 'Ask.', default_face_id: face };
    assert.equal((await t.api('POST', '/v2/pals', { ...pal, objectives_id: created.body.objectives_id })).status, 200);
    const unknown = await t.api('POST', '/v2/pals', { ...pal, objectives_id: 'onothere' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /objectives_id/);
    assert.equal((await t.api('DELETE', `/v2/objectives/${created.body.objectives_id}`)).status, 200);
    assert.equal((await t.api('GET', `/v2/objectives/${created.body.objectives_id}`)).status, 404);
  });

  it('tracks the objectives of the conversation and sends the objective callback once when one completes', async () => {
    const objectives = (
      await t.api('POST', '/v2/objectives', {
        data: [
          { objective_name: 'contact_details', output_variables: ['email', 'phone'], callback_url: `${receiver.url}/objective` },
          { objective_name: 'budget', output_variables: ['budget'] },
        ],
      })
    ).body.objectives_id as string;
    const { palId } = await createPal(t, { definition: { objectives_id: objectives } });
    const conv = await t.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(conv.status, 200, JSON.stringify(conv.body));
    const id = conv.body.conversation_id as string;
    const capture = (variables: Record<string, unknown>) => t.api('POST', `/v2/conversations/${id}/objectives/variables`, { variables });

    const partial = await capture({ email: 'ada@example.com', unrelated: 1 });
    assert.equal(partial.status, 200, JSON.stringify(partial.body));
    assert.deepEqual(partial.body.data, [
      { objective_name: 'contact_details', output_variables: { email: 'ada@example.com' }, completed: false },
      { objective_name: 'budget', output_variables: {}, completed: false },
    ]);
    const done = await capture({ phone: '+351 555 0100', budget: 5000 });
    assert.deepEqual(
      done.body.data.map((p: { completed: boolean }) => p.completed),
      [true, true],
    );
    const [callback] = await receiver.waitFor(1);
    assert.equal(callback!.path, '/objective');
    assert.deepEqual(callback!.body, {
      conversation_id: id,
      objective_name: 'contact_details',
      output_variables: { email: 'ada@example.com', phone: '+351 555 0100' },
    });
    await capture({ email: 'other@example.com' });
    await t.service.deps.jobs.drain(); // the callbacks the capture enqueued (with its write) are delivered
    assert.equal(receiver.received.length, 1, 'a completed objective is reported once and keeps its values');
    assert.deepEqual((await t.api('GET', `/v2/conversations/${id}/objectives`)).body.data[0].output_variables, {
      email: 'ada@example.com',
      phone: '+351 555 0100',
    });
    assert.equal((await t.api('GET', `/v2/conversations/${id}/objectives`, undefined, { key: OTHER_KEY })).status, 404);
    assert.equal((await t.api('POST', `/v2/conversations/${id}/objectives/variables`, { variables: {} })).status, 400);

    // Deleting the objectives cleans the PAL's reference.
    await t.api('DELETE', `/v2/objectives/${objectives}`);
    const pal = await t.service.deps.db.selectFrom('pals').select('definition').where('pal_id', '=', palId).executeTakeFirstOrThrow();
    assert.equal((pal.definition as Record<string, unknown>).objectives_id, null);
  });

  it('documents the objectives routes in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    assert.ok(doc.paths['/v2/objectives'].post && doc.paths['/v2/objectives'].get);
    assert.ok(doc.paths['/v2/objectives/{objectives_id}'].get && doc.paths['/v2/objectives/{objectives_id}'].delete);
    assert.ok(doc.paths['/v2/conversations/{conversation_id}/objectives/variables'].post);
  });
});
