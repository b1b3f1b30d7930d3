import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { PalGate } from '../../../src/palkit/components/gate/gate.js';
import type { PalCaptchaEvent } from '../../../src/palkit/components/events/captcha.js';
import { PalCaptchaUnavailableEvent } from '../../../src/palkit/components/events/captcha-unavailable.js';
import { PalPasswordEvent } from '../../../src/palkit/components/events/password.js';
import { turnstileConfig } from '../../../src/palkit/components/gate/turnstile.js';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { installStandInTurnstile } from '../../../stories/support/turnstile.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, recordEvents, useFakeService } from '../helpers/deployment.js';

describe('pal-gate', () => {
  afterEach(() => {
    delete window.turnstile;
  });

  it('password step: says an empty password in words, submits the password, waits while it is checked, shows the error', async () => {
    const el = await fixture<PalGate>(html`<pal-gate step="password"></pal-gate>`);
    await expect(el).to.be.accessible();
    const input = deep<HTMLInputElement>(el, 'input')!;
    expect(getComputedStyle(input).fontSize).to.not.equal('');
    let sent = 0;
    el.addEventListener('pal-password', () => sent++);
    deep(el, 'button')!.click();
    await el.updateComplete;
    expect(deep(el, '[role=alert]')!.textContent).to.contain('Please enter the password');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(sent).to.equal(0);
    input.value = 'secret';
    input.dispatchEvent(new Event('input'));
    setTimeout(() => deep(el, 'button')!.click());
    const event = (await oneEvent(el, 'pal-password')) as PalPasswordEvent;
    expect(event).to.be.instanceOf(PalPasswordEvent);
    expect(event.detail).to.deep.equal({ password: 'secret' });
    el.checking = true;
    await el.updateComplete;
    const button = deep<HTMLButtonElement>(el, 'button')!;
    expect(button.disabled).to.equal(true);
    expect(button.textContent!.trim()).to.equal('Checking…');
    el.errorCode = 'invalid_password';
    el.checking = false;
    await el.updateComplete;
    expect(deep(el, '[role=alert]')!.textContent).to.contain('not right');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.selectionEnd! - input.selectionStart!).to.equal('secret'.length, 'the wrong password is selected to type over');
    await expect(el).to.be.accessible();
  });

  it('password step with a captcha: the challenge sits above the field and its token goes with the password, a new one per attempt', async () => {
    const { renders } = installStandInTurnstile({ checkbox: false });
    const el = await fixture<PalGate>(html`<pal-gate step="password" site-key="0x4AAA"></pal-gate>`);
    await waitFor(() => renders.length === 1, { what: 'turnstile render' });
    expect(deep(el, 'form [part=captcha]')).to.not.equal(null);
    const input = deep<HTMLInputElement>(el, 'input')!;
    input.value = 'secret';
    renders[0]!.callback('tok-1');
    setTimeout(() => deep(el, 'button')!.click());
    expect(((await oneEvent(el, 'pal-password')) as PalPasswordEvent).detail).to.deep.equal({ password: 'secret', captchaToken: 'tok-1' });
    el.checking = true;
    await el.updateComplete;
    el.errorCode = 'invalid_password';
    el.checking = false;
    await waitFor(() => renders.length === 2, { what: 'a fresh challenge after the attempt' });
  });

  it('captcha step loads Turnstile only then, renders with the site key and passes the token', async () => {
    const { renders } = installStandInTurnstile({ checkbox: false });
    const el = await fixture<PalGate>(html`<pal-gate step="captcha" site-key="0x4AAA"></pal-gate>`);
    await waitFor(() => renders.length === 1, { what: 'turnstile render' });
    expect(renders[0]!.sitekey).to.equal('0x4AAA');
    setTimeout(() => renders[0]!.callback('token-1'));
    expect(((await oneEvent(el, 'pal-captcha')) as PalCaptchaEvent).detail).to.equal('token-1');
    await expect(el).to.be.accessible();
  });

  it('reports a captcha that cannot load', async () => {
    const saved = turnstileConfig.scriptUrl;
    turnstileConfig.scriptUrl = '/does-not-exist/turnstile.js';
    try {
      const el = await fixture<PalGate>(html`<pal-gate step="captcha" site-key="k"></pal-gate>`);
      expect(await oneEvent(el, 'pal-captcha-unavailable')).to.be.instanceOf(PalCaptchaUnavailableEvent);
      expect(document.head.querySelector('script[src="/does-not-exist/turnstile.js"]')).to.not.equal(null);
    } finally {
      turnstileConfig.scriptUrl = saved;
    }
  });

  it('does not load Turnstile for deployments without a captcha', async () => {
    useFakeService({ has_password: true, customization: { show_haircheck: false } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle');
    void el.startConversation();
    await waitFor(() => el.session?.gate === 'password');
    await el.updateComplete;
    expect(deep(el, 'pal-gate')!.getAttribute('step')).to.equal('password');
    expect(document.querySelector('script[src*="challenges.cloudflare.com"]')).to.equal(null);
  });

  it('a check that takes a moment does not swallow Enter: the submission waits, says so, and goes when the check is done (issue 25, item 6)', async () => {
    const service = useFakeService({
      has_password: true,
      captcha: { provider: 'turnstile', site_key: 'site' },
      customization: { show_haircheck: false },
    });
    // A managed Turnstile that takes a moment: the challenge answers by itself, once the test lets it.
    const { renders: challenges } = installStandInTurnstile({ checkbox: false });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle');
    void el.startConversation();
    await waitFor(() => el.session?.gate === 'password' && deep(el, 'pal-gate', 'input') !== null, { what: 'password step' });
    const input = deep<HTMLInputElement>(el, 'pal-gate', 'input')!;
    input.focus();
    await sendKeys({ type: 'open sesame' });
    await sendKeys({ press: 'Enter' });
    await waitFor(() => deep(el, 'pal-gate', '[role=status]')?.textContent?.includes('Waiting for the check above') === true, {
      what: 'the wait said in words',
    });
    expect(deep(el, 'pal-gate', '[role=alert]')!.textContent!.trim()).to.equal('');
    expect(deep(el, 'pal-gate', 'button')!.getAttribute('aria-busy')).to.equal('true');
    expect(
      service.calls.some((c) => c.url.endsWith('/gate')),
      'nothing sent before the check is done',
    ).to.equal(false);
    challenges.at(-1)!.callback('tok-slow');
    // No second press: the password goes once the check is done, and the call starts.
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    expect(service.calls.filter((c) => c.url.endsWith('/gate')).map((c) => c.body)).to.deep.equal([
      { password: 'open sesame', captcha_token: 'tok-slow' },
    ]);
  });

  it('in a deployment: the password is checked at its step (with the captcha token), a wrong one stays there with a pal-error, the pass starts the call', async () => {
    let attempts = 0;
    const service = useFakeService(
      { has_password: true, captcha: { provider: 'turnstile', site_key: 'site' }, customization: { show_haircheck: false } },
      {
        '/gate': () =>
          ++attempts === 1
            ? { status: 403, body: { error: 'invalid_password' } }
            : { status: 200, body: { gate_pass: 'pass-1', expires_at: '2030-01-01T00:00:00Z' } },
      },
    );
    const { renders: tokens } = installStandInTurnstile({ checkbox: false });
    const events = recordEvents(['pal-error']);
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle');
    void el.startConversation();
    const gate = async () => {
      await el.updateComplete;
      const g = deep(el, 'pal-gate') as PalGate;
      await g.updateComplete;
      return g;
    };
    await waitFor(() => el.session?.gate === 'password');
    await waitFor(() => tokens.length === 1);
    tokens[0]!.callback('tok-1');
    deep<HTMLInputElement>(await gate(), 'input')!.value = 'wrong';
    deep(await gate(), 'button')!.click();
    await waitFor(() => el.session?.gateError?.code === 'invalid_password');
    expect(el.session!.gate).to.equal('password');
    expect(service.calls.some((c) => c.url.endsWith('/start'))).to.equal(false, 'no start before the password passed');
    const shown = await gate();
    await waitFor(() => deep(shown, '[role=alert]')?.textContent?.includes('not right') === true, { what: 'the error in words' });
    await waitFor(() => tokens.length === 2, { what: 'a fresh challenge' });
    tokens[1]!.callback('tok-2');
    deep<HTMLInputElement>(await gate(), 'input')!.value = 'right';
    deep(await gate(), 'button')!.click();
    await waitFor(() => el.state === 'connected');
    events.stop();
    expect(events.seen.map((e) => (e.detail as { code: string }).code)).to.deep.equal(['invalid_password']);
    expect(service.calls.filter((c) => c.url.endsWith('/gate')).map((c) => c.body)).to.deep.equal([
      { password: 'wrong', captcha_token: 'tok-1' },
      { password: 'right', captcha_token: 'tok-2' },
    ]);
    const bodies = service.calls.filter((c) => c.url.endsWith('/start')).map((c) => c.body as Record<string, unknown>);
    // The start carries the pass, and the page's visitor key (the front door's per-visitor rate).
    expect(bodies.map(({ visitor_key, ...rest }) => ({ ...rest, keyed: typeof visitor_key === 'string' }))).to.deep.equal([
      { gate_pass: 'pass-1', keyed: true },
    ]);
  });
});
