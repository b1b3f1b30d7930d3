// The one outbound fetch: schemes, IP literals, DNS names, redirects into private ranges, size and
// time caps, and the allow-list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../helpers/clock.js';
import { createGuardedFetch, OutboundBlockedError, OutboundTooLargeError } from '../../../../src/server/platform/net/guarded-fetch.js';
import { startSite, type TestSite } from '../../../helpers/site.js';

describe('createGuardedFetch', () => {
  let site: TestSite;
  const open = createGuardedFetch([]);
  const loopback = createGuardedFetch(['127.0.0.0/8']);
  const onlyOne = createGuardedFetch(['127.0.0.1/32']);

  before(async () => {
    site = await startSite({
      '/ok': { body: 'hello', type: 'text/plain' },
      '/big': { body: 'x'.repeat(5000), type: 'text/plain', headers: { 'content-length': '5000' } },
      '/slow': { body: 'late', type: 'text/plain', delayMs: 1500 },
      '/to-metadata': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/to-private': { status: 307, headers: { location: 'http://10.0.0.1/' } },
      '/to-ipv6-loopback': { status: 302, headers: { location: 'http://[::1]:9/' } },
      '/to-ok': { status: 302, headers: { location: '/ok' } },
    });
  });
  after(() => site.close());

  const port = () => new URL(site.origin).port;

  it('refuses schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'gopher://example.com/']) {
      await assert.rejects(open(url), OutboundBlockedError, url);
    }
  });

  it('refuses private, loopback, link-local and metadata IP literals', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      `http://127.0.0.1:${port()}/ok`,
      `http://[::1]:${port()}/ok`,
      `http://[::ffff:127.0.0.1]:${port()}/ok`,
      'http://0.0.0.0/',
      'http://100.64.0.1/',
    ]) {
      await assert.rejects(open(url), OutboundBlockedError, url);
    }
    assert.equal(site.requests.length, 0);
  });

  it('refuses DNS names that resolve to private addresses', async () => {
    await assert.rejects(
      open(`http://localhost:${port()}/ok`),
      (e: Error) => e instanceof OutboundBlockedError || /not allowed/.test(String((e as { cause?: unknown }).cause ?? e.message)),
    );
    assert.equal(site.requests.length, 0);
  });

  it('reaches allowed ranges, by literal and by name', async () => {
    const r = await loopback(`http://127.0.0.1:${port()}/ok`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'hello');
    assert.equal(await (await loopback(`http://localhost:${port()}/ok`)).text(), 'hello');
  });

  it('checks every redirect hop', async () => {
    await assert.rejects(loopback(`${site.origin}/to-metadata`), OutboundBlockedError);
    await assert.rejects(loopback(`${site.origin}/to-private`), OutboundBlockedError);
    await assert.rejects(onlyOne(`${site.origin}/to-ipv6-loopback`), OutboundBlockedError);
    const followed = await loopback(`${site.origin}/to-ok`);
    assert.equal(await followed.text(), 'hello');
    assert.equal(followed.url, `${site.origin}/ok`);
    const manual = await loopback(`${site.origin}/to-metadata`, { redirect: 'manual' });
    assert.equal(manual.status, 302);
  });

  it('caps the body size, declared or streamed', async () => {
    await assert.rejects(loopback(`${site.origin}/big`, { maxBytes: 1000 }), OutboundTooLargeError);
    site.routes.set('/stream', { body: 'y'.repeat(5000), type: 'text/plain', headers: { 'transfer-encoding': 'chunked' } });
    const streamed = await loopback(`${site.origin}/stream`, { maxBytes: 1000 })
      .then((r) => r.arrayBuffer())
      .then(
        () => 'read',
        (e) => e,
      );
    assert.notEqual(streamed, 'read');
    assert.ok(
      streamed instanceof OutboundTooLargeError ||
        (streamed as { cause?: unknown }).cause instanceof OutboundTooLargeError ||
        /exceeds/.test(String(streamed)),
    );
    assert.equal((await (await loopback(`${site.origin}/big`, { maxBytes: 5000 })).text()).length, 5000);
  });

  it('gives up after the time limit', async () => {
    const clock = new ManualClock();
    const seen: { outcome: 'waiting' | 'answered' | Error } = { outcome: 'waiting' };
    const fetching = createGuardedFetch(['127.0.0.0/8'], clock)(`${site.origin}/slow`, { timeoutMs: 200 }).then(
      () => (seen.outcome = 'answered'),
      (e: Error) => (seen.outcome = e),
    );
    await clock.advance(199);
    assert.equal(seen.outcome, 'waiting', 'still waiting within the limit');
    await clock.advance(1);
    await fetching;
    const outcome = seen.outcome as unknown; // set by the callbacks above, after the check narrowed it
    assert.ok(
      outcome instanceof Error && [outcome.name, (outcome.cause as Error | undefined)?.name].includes('TimeoutError'),
      String(outcome),
    );
  });
});
