// Starts of one deployment written together: one statement for those that arrive together, the total
// limit applied in arrival order, nothing written when the deployment changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { planConversation } from '../../../../src/server/resources/conversations/create.js';
import { findStartableDeployment } from '../../../../src/server/resources/deployments/repository.js';
import { StartBatcher, type BatchedStart } from '../../../../src/server/resources/deployments/start-batch.js';
import { createPal } from '../../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

describe('start batches', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startTestService();
    ({ palId } = (await createPal(t)) as { palId: string });
  });
  after(() => t.close());

  async function deploymentWith(limits: Record<string, number>): Promise<string> {
    const created = await t.api('POST', '/v2/deployments', { pal_id: palId, channel: 'widget', limits });
    const id = created.body.deployment_id as string;
    assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/status', value: 'active' }])).status, 200);
    return id;
  }

  async function plannedStarts(deploymentId: string, count: number): Promise<BatchedStart[]> {
    const { deps } = t.service;
    const deployment = (await findStartableDeployment(deps.db, deploymentId))!;
    return Array.from({ length: count }, (_, i) => {
      const planned = planConversation(
        deps,
        {
          ownerId: deployment.owner_id,
          palId: deployment.pal_id,
          deploymentId,
          memoryStores: [`visitor-${i}`],
          properties: { max_call_duration: 60 + i },
        },
        deployment.palAndFace,
      );
      return { deployment, conversation: planned.row, palAndFace: planned.palAndFace };
    });
  }

  /** A batcher on the service's database that counts the statements it runs. */
  function countingBatcher(): { batcher: StartBatcher; statements: () => number } {
    let statements = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => (statements++, args.node),
      transformResult: async (args) => args.result,
    };
    return { batcher: new StartBatcher(t.service.deps.db.withPlugin(counter)), statements: () => statements };
  }

  it('writes the starts that arrive together in one statement, the first ones up to the total limit', async () => {
    const id = await deploymentWith({ total_call_limit: 10 });
    const starts = await plannedStarts(id, 25);
    const { batcher, statements } = countingBatcher();
    const written = await Promise.all(starts.map((s) => batcher.write(s)));
    assert.deepEqual(
      written,
      starts.map((_, i) => i < 10),
    );
    assert.equal(statements(), 1);

    const { db } = t.service.deps;
    assert.equal(
      (await db.selectFrom('deployments').select('usage_total').where('deployment_id', '=', id).executeTakeFirstOrThrow()).usage_total,
      10,
    );
    const rows = await db
      .selectFrom('conversations')
      .select(['conversation_id', 'memory_stores', 'properties', 'created_at'])
      .where('deployment_id', '=', id)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.conversation_id).sort(),
      starts
        .slice(0, 10)
        .map((s) => s.conversation.conversation_id)
        .sort(),
    );
    const ninth = rows.find((r) => r.conversation_id === starts[9]!.conversation.conversation_id)!;
    assert.deepEqual(ninth.memory_stores, ['visitor-9']);
    assert.equal((ninth.properties as { max_call_duration: number }).max_call_duration, 69);
    assert.equal(new Date(ninth.created_at).getTime(), starts[9]!.conversation.created_at.getTime());
  });

  it('writes nothing for starts planned from a deployment that has changed since', async () => {
    const id = await deploymentWith({});
    const starts = await plannedStarts(id, 3);
    assert.equal((await t.api('PATCH', `/v2/deployments/${id}`, [{ op: 'replace', path: '/name', value: 'Renamed' }])).status, 200);
    const { batcher } = countingBatcher();
    assert.deepEqual(await Promise.all(starts.map((s) => batcher.write(s))), [false, false, false]);
    const { db } = t.service.deps;
    assert.equal((await db.selectFrom('conversations').select('conversation_id').where('deployment_id', '=', id).execute()).length, 0);
    assert.equal(
      (await db.selectFrom('deployments').select('usage_total').where('deployment_id', '=', id).executeTakeFirstOrThrow()).usage_total,
      0,
    );
  });

  it('writes every start of a deployment without a total limit', async () => {
    const id = await deploymentWith({});
    const starts = await plannedStarts(id, 40);
    const { batcher, statements } = countingBatcher();
    assert.ok((await Promise.all(starts.map((s) => batcher.write(s)))).every(Boolean));
    assert.equal(statements(), 1);

    // Starts that come while a write is due join it; the next ones get a write of their own.
    const more = await plannedStarts(id, 4);
    const first = batcher.write(more[0]!);
    const second = batcher.write(more[1]!);
    await first;
    assert.deepEqual(await Promise.all([second, batcher.write(more[2]!), batcher.write(more[3]!)]), [true, true, true]);
    assert.equal(statements(), 3);
    const { db } = t.service.deps;
    assert.equal(
      (await db.selectFrom('deployments').select('usage_total').where('deployment_id', '=', id).executeTakeFirstOrThrow()).usage_total,
      44,
    );
  });
});
