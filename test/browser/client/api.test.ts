import { expect } from '@open-wc/testing';
import { ApiClient } from '../../../src/palkit/client/api.js';
import { PalClientError } from '../../../src/palkit/client/errors.js';
import { initBody, scriptedFetch, startBody } from '../../../stories/support/endpoints.js';

async function failure(promise: Promise<unknown>): Promise<PalClientError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(PalClientError);
    return error as PalClientError;
  }
  throw new Error('expected a failure');
}

describe('ApiClient', () => {
  it('reads init and start, sending the start body as JSON', async () => {
    const { fetch, calls } = scriptedFetch({ '/init': { status: 200, body: initBody() }, '/start': { status: 200, body: startBody() } });
    const api = new ApiClient({ apiBase: 'http://pal.test/', fetch });
    expect((await api.init('d123')).deployment_id).to.equal('d123');
    expect((await api.start('d123', { password: 'p', memory_stores: ['m1'] })).conversation_id).to.equal('c42');
    expect(calls.map((c) => c.url)).to.deep.equal([
      'http://pal.test/v2/deployments/d123/init',
      'http://pal.test/v2/deployments/d123/start',
    ]);
    const { visitor_key: key, ...sent } = calls[1]!.body as { visitor_key: string };
    expect(sent).to.deep.equal({ password: 'p', memory_stores: ['m1'] });
    // The visitor's own key, kept by the page: the service rates starts per visitor with it.
    expect(key).to.match(/^[A-Za-z0-9_-]{16,64}$/);
    expect(localStorage.getItem('palkit-visitor-key')).to.equal(key);
    await api.start('d123', {});
    expect((calls[2]!.body as { visitor_key: string }).visitor_key).to.equal(key, 'the same key on the next start');
  });

  it('maps every start error body to its code, with Retry-After', async () => {
    for (const [status, code] of [
      [404, 'deployment_not_found'],
      [403, 'deployment_inactive'],
      [403, 'origin_not_allowed'],
      [403, 'password_required'],
      [403, 'invalid_password'],
      [403, 'captcha_required'],
      [403, 'captcha_failed'],
      [429, 'daily_limit'],
      [429, 'total_limit'],
      [429, 'busy'],
      [429, 'too_many_attempts'],
    ] as const) {
      const { fetch } = scriptedFetch({ '/start': { status, body: { error: code }, headers: { 'retry-after': '12' } } });
      const error = await failure(new ApiClient({ apiBase: 'http://pal.test', fetch }).start('d', {}));
      expect(error.code).to.equal(code);
      expect(error.status).to.equal(status);
      expect(error.retryAfter).to.equal(12);
    }
    const { fetch } = scriptedFetch({ '/start': { status: 400, body: { error: 'invalid_request: memory_stores must be an array' } } });
    expect((await failure(new ApiClient({ apiBase: 'http://pal.test', fetch }).start('d', {}))).code).to.equal('invalid_request');
  });

  it('turns network failures, bad JSON and wrong shapes into typed errors', async () => {
    const network = scriptedFetch({ '/init': new TypeError('Failed to fetch') });
    expect((await failure(new ApiClient({ apiBase: 'http://x', fetch: network.fetch }).init('d'))).code).to.equal('network_error');
    const html = scriptedFetch({ '/init': { status: 200, body: '<html>' } });
    expect((await failure(new ApiClient({ apiBase: 'http://x', fetch: html.fetch }).init('d'))).code).to.equal('bad_response');
    const shape = scriptedFetch({ '/init': { status: 200, body: { deployment_id: 5 } } });
    expect((await failure(new ApiClient({ apiBase: 'http://x', fetch: shape.fetch }).init('d'))).code).to.equal('bad_response');
    const plain = scriptedFetch({ '/init': { status: 502, body: 'Bad gateway' } });
    expect((await failure(new ApiClient({ apiBase: 'http://x', fetch: plain.fetch }).init('d'))).code).to.equal('http_error');
  });

  it('posts canvas interactions and reports the end of the conversation', async () => {
    const body = {
      interaction_id: 'ci_1_submit_u',
      tool_call_id: '1',
      component: 'canvas.input',
      component_version: 'v1',
      type: 'submit' as const,
      value: { value: 'x' },
    };
    const ok = scriptedFetch({ '/canvas/interactions': { status: 200, body: { success: true } } });
    await new ApiClient({ apiBase: 'http://x', fetch: ok.fetch }).postCanvasInteraction('c1', body);
    expect(ok.calls[0]!.url).to.equal('http://x/v2/conversations/c1/canvas/interactions');
    const gone = scriptedFetch({ '/canvas/interactions': { status: 410, body: { error: 'conversation_ended' } } });
    expect((await failure(new ApiClient({ apiBase: 'http://x', fetch: gone.fetch }).postCanvasInteraction('c1', body))).code).to.equal(
      'conversation_ended',
    );
    const limited = scriptedFetch({
      '/canvas/interactions': { status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '3' } },
    });
    const error = await failure(new ApiClient({ apiBase: 'http://x', fetch: limited.fetch }).postCanvasInteraction('c1', body));
    expect([error.code, error.retryAfter]).to.deep.equal(['rate_limited', 3]);
  });
});
