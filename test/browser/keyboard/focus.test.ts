// Focus follows the visitor from screen to screen, and the call's parts announce themselves once.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

/** The focused element, through every shadow root. */
function deepActive(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

async function embed(attrs = ''): Promise<PalEmbed> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"></div>`);
  wrapper.innerHTML = `<pal-embed deployment-id="d123" ${attrs}></pal-embed>`;
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.updateComplete;
  return el;
}

describe('focus and announcements', () => {
  it('focus moves to each new screen (call controls, then the after-call heading), never to the page body', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const el = await embed();
    await waitFor(() => deep(el, 'pal-preview', 'button') !== null, { what: 'preview' });
    deep(el, 'pal-preview', 'button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.state !== 'idle', { what: `Enter on Start to start the call (focus on ${deepActive()?.tagName})` });
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await waitFor(() => deepActive()?.closest('[role=toolbar]') != null, {
      what: `focus in the call controls (was ${deepActive()?.tagName})`,
    });
    expect(deepActive()!.getAttribute('aria-label')).to.equal('Microphone');
    deep(el, 'pal-conversation', 'pal-controls', '.end')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.mode === 'ended', { what: `Enter on End to end the call (focus on ${deepActive()?.tagName})` });
    await waitFor(() => deepActive()?.tagName === 'H2', { what: `focus on the after-call heading (was ${deepActive()?.tagName})` });
    expect(deepActive()!.textContent).to.contain('Thank you for the conversation');
  });

  it('does not take focus from the page when the element loads', async () => {
    useFakeService();
    const input = await fixture<HTMLInputElement>(html`<input aria-label="page field" />`);
    input.focus();
    await embed();
    expect(document.activeElement).to.equal(input);
  });

  it('microphone and camera buttons keep one name and announce their state once, through aria-pressed', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const el = await embed();
    await el.startConversation();
    await waitFor(() => deep(el, 'pal-conversation', 'pal-controls', '.toggle-media') !== null, { what: 'controls' });
    const [mic, camera] = deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!.querySelectorAll<HTMLButtonElement>('.toggle-media');
    expect([mic!.getAttribute('aria-label'), mic!.getAttribute('aria-pressed')]).to.deep.equal(['Microphone', 'true']);
    mic!.click();
    await waitFor(() => mic!.getAttribute('aria-pressed') === 'false', { what: 'mic off' });
    expect(mic!.getAttribute('aria-label')).to.equal('Microphone');
    expect(camera!.getAttribute('aria-label')).to.equal('Camera');
  });

  it('the inline embed is a region, not a dialog', async () => {
    useFakeService();
    const el = await embed();
    const card = deep(el, '[part~=base]')!;
    expect(card.tagName).to.not.equal('DIALOG');
    expect(card.getAttribute('role')).to.equal('region');
    expect(card.getAttribute('aria-label')).to.not.equal(null);
  });

  it('the widget popup adds no banner landmark', async () => {
    useFakeService();
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await waitFor(() => el.session?.deployment != null, { what: 'init' });
    await el.open();
    expect(el.shadowRoot!.querySelector('header, [role=banner]')?.outerHTML.slice(0, 40) ?? 'none').to.equal('none');
    expect(deep(el, '[part~=header]')).to.not.equal(null);
  });
});
