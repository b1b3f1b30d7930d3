import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { PalGate } from '../../../src/components/gate/gate.js';
import { turnstileConfig } from '../../../src/components/gate/turnstile.js';
import type { PalEmbed } from '../../../src/components/embed/embed.js';
import { until } from '../helpers/fakes.js';
import { deep, recordEvents, useFakeService } from '../helpers/deployment.js';

describe('pal-gate', () => {
  afterEach(() => {
    delete window.turnstile;
  });

  it('password step: submits the password, shows the error in words, is accessible', async () => {
    const el = await fixture<PalGate>(html`<pal-gate step="password"></pal-gate>`);
    await expect(el).to.be.accessible();
    const input = deep<HTMLInputElement>(el, 'input')!;
    expect(getComputedStyle(input).fontSize).to.not.equal('');
    input.value = 'secret';
    setTimeout(() => deep(el, 'button')!.click());
    const event = (await oneEvent(el, 'password')) as CustomEvent<string>;
    expect(event.detail).to.equal('secret');
    el.errorCode = 'invalid_password';
    await el.updateComplete;
    expect(deep(el, '[role=alert]')!.textContent).to.contain('not right');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    await expect(el).to.be.accessible();
  });

  it('captcha step loads Turnstile only then, renders with the site key and passes the token', async () => {
    let rendered: { sitekey: string; callback: (token: string) => void } | null = null;
    window.turnstile = { render: (_box, options) => ((rendered = options), 'w1'), remove: () => undefined };
    const el = await fixture<PalGate>(html`<pal-gate step="captcha" site-key="0x4AAA"></pal-gate>`);
    await until(() => rendered !== null, 'turnstile render');
    expect(rendered!.sitekey).to.equal('0x4AAA');
    setTimeout(() => rendered!.callback('token-1'));
    expect(((await oneEvent(el, 'captcha')) as CustomEvent<string>).detail).to.equal('token-1');
    await expect(el).to.be.accessible();
  });

  it('reports a captcha that cannot load', async () => {
    const saved = turnstileConfig.scriptUrl;
    turnstileConfig.scriptUrl = '/does-not-exist/turnstile.js';
    try {
      const el = await fixture<PalGate>(html`<pal-gate step="captcha" site-key="k"></pal-gate>`);
      await oneEvent(el, 'captcha-unavailable');
      expect(document.head.querySelector('script[src="/does-not-exist/turnstile.js"]')).to.not.equal(null);
    } finally {
      turnstileConfig.scriptUrl = saved;
    }
  });

  it('does not load Turnstile for deployments without a captcha', async () => {
    useFakeService({ has_password: true, customization: { show_haircheck: false } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await until(() => el.session?.state === 'idle');
    void el.startConversation();
    await until(() => el.session?.gate === 'password');
    await el.updateComplete;
    expect(deep(el, 'pal-gate')!.getAttribute('step')).to.equal('password');
    expect(document.querySelector('script[src*="challenges.cloudflare.com"]')).to.equal(null);
  });

  it('in a deployment: wrong password returns to the gate with a pal-error, then the captcha, then the call', async () => {
    let attempts = 0;
    const service = useFakeService({ has_password: true, captcha: { provider: 'turnstile', site_key: 'site' }, customization: { show_haircheck: false } }, {
      '/start': () => (++attempts === 1 ? { status: 403, body: { error: 'invalid_password' } } : { status: 200, body: { conversation_id: 'c42', conversation_name: 'n', conversation_url: 'http://pal.test/rooms/c42', status: 'active', created_at: 'now', meeting_token: 't' } }),
    });
    const tokens: ((t: string) => void)[] = [];
    window.turnstile = { render: (_b, o) => (tokens.push(o.callback), `w${tokens.length}`), remove: () => undefined };
    const events = recordEvents(['pal-error']);
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await until(() => el.session?.state === 'idle');
    void el.startConversation();
    const gate = async () => {
      await el.updateComplete;
      const g = deep(el, 'pal-gate') as PalGate;
      await g.updateComplete;
      return g;
    };
    await until(() => el.session?.gate === 'password');
    (await gate()).dispatchEvent(new CustomEvent('password', { detail: 'wrong' }));
    await until(() => el.session?.gate === 'captcha');
    await until(() => tokens.length === 1);
    tokens[0]!('tok-1');
    await until(() => el.session?.gateError?.code === 'invalid_password');
    await until(() => el.session?.gate === 'password');
    expect(deep((await gate()), '[role=alert]')!.textContent).to.contain('not right');
    (await gate()).dispatchEvent(new CustomEvent('password', { detail: 'right' }));
    await until(() => tokens.length === 2);
    tokens[1]!('tok-2');
    await until(() => el.state === 'connected');
    events.stop();
    expect(events.seen.map((e) => (e.detail as { code: string }).code)).to.deep.equal(['invalid_password']);
    const bodies = service.calls.filter((c) => c.url.endsWith('/start')).map((c) => c.body);
    expect(bodies).to.deep.equal([{ password: 'wrong', captcha_token: 'tok-1' }, { password: 'right', captcha_token: 'tok-2' }]);
  });
});
