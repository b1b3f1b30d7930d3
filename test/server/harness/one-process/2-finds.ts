// Run by one-process.test.ts, after 1-starts.ts in the same process: its service was closed when this file began.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { TestService } from '../../../helpers/service.js';

it('finds the service the file before forgot closed', async () => {
  const kept = (globalThis as { kept?: TestService[] }).kept ?? [];
  assert.equal(kept.length, 1);
  await assert.rejects(kept[0]!.service.deps.db.selectFrom('conversations').select('status').execute());
});
