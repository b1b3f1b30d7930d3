// The logger never writes credentials embedded in URLs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

describe('log redaction', () => {
  it('strips user:password@ from URLs', async () => {
    const { redactUrlCredentials } = await import('../../src/server/log.js');
    assert.equal(redactUrlCredentials('fetch https://alice:s3cret@host.example/x failed'), 'fetch https://***@host.example/x failed');
    assert.equal(redactUrlCredentials('{"url":"postgres://u:p@db:5432/x"}'), '{"url":"postgres://***@db:5432/x"}');
    assert.equal(redactUrlCredentials('https://host.example/a@b'), 'https://host.example/a@b');
  });
});
