// The per-owner cap on background generation: one owner's queue of speech items (or videos) cannot grow
// without bound and slow every tenant's calls; past the cap a create answers 429 with the spec's body and
// Retry-After, another owner is not affected, and a finished item makes room again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OTHER_KEY, startTestService, type TestService } from '../../../helpers/service.js';

describe('generating, capped per owner', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ PALKIT_GENERATING_PER_OWNER: '3' });
  });
  after(() => t.close());

  /** Items of owner 1 still generating, written as the create writes them (the job runner left out of it). */
  async function generating(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const now = new Date();
      const id = `s_cap_${i}_${Math.random().toString(36).slice(2)}`;
      await t.service.deps.db
        .insertInto('speech')
        .values({
          speech_id: id,
          owner_id: 1,
          speech_name: 'queued',
          script: 'x',
          voice: 'en-us',
          audio_format: null,
          status: 'generating',
          generation_progress: '0/2',
          callback_url: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      ids.push(id);
    }
    return ids;
  }

  it('a speech item past the cap is refused with 429, Retry-After and an error body; another owner still creates', async () => {
    const ids = await generating(3);
    const refused = await t.api('POST', '/v2/speech', { script: 'One more.' });
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body), ['error']);
    assert.match(refused.body.error, /3 speech items/);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const other = await t.api('POST', '/v2/speech', { script: 'Owner two speaks.' }, { key: OTHER_KEY });
    assert.equal(other.status, 200);

    await t.service.deps.db.updateTable('speech').set({ status: 'ready' }).where('speech_id', '=', ids[0]!).execute();
    const again = await t.api('POST', '/v2/speech', { script: 'Room again.' });
    assert.equal(again.status, 200, 'a finished item makes room');
  });
});
