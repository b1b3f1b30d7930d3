// Run by one-process.test.ts, before 2-finds.ts in the same process: a file whose shared service is never closed.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../../helpers/service.js';

const kept: TestService[] = ((globalThis as { kept?: TestService[] }).kept ??= []);

describe('a file that forgets to close its service', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
    kept.push(t);
  });
  it('uses it in one test', async () => assert.equal((await t.api('GET', '/v2/pals')).status, 200));
  it('and in the next: the service lives as long as the file', async () => assert.equal((await t.api('GET', '/v2/pals')).status, 200));
});
