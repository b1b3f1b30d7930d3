// Escape closes the innermost thing (devices menu, chat panel, canvas card), then minimises the widget's
// popup during a call; hanging up from the popup asks first.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

async function widgetInCall() {
  const service = useFakeService({ customization: { show_haircheck: false } });
  const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
  await waitFor(() => el.session?.deployment !== null && el.session?.state === 'idle', { what: 'init' });
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  await el.updateComplete;
  await waitFor(() => deep(el, 'pal-conversation', 'pal-controls', 'details') !== null, { what: 'controls' });
  return { el, service, dialog: deep<HTMLDialogElement>(el, 'dialog')! };
}

const confirmBox = (el: Element) => deep(el, 'pal-end-confirm', '[role=alertdialog]');

describe('Escape and ending', () => {
  it('Escape in the open devices menu closes the menu only', async () => {
    const { el, dialog } = await widgetInCall();
    const details = deep<HTMLDetailsElement>(el, 'pal-conversation', 'pal-controls', 'details')!;
    deep(el, 'pal-conversation', 'pal-controls', 'summary')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => details.open, { what: 'menu open' });
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !details.open, { what: 'menu closed' });
    expect(dialog.open).to.equal(true);
    expect(el.state).to.equal('connected');
    const controls = deep(el, 'pal-conversation', 'pal-controls')!;
    expect(controls.shadowRoot!.activeElement?.tagName).to.equal('SUMMARY');
  });

  it('Escape in the chat box closes the chat panel only', async () => {
    const { el, dialog } = await widgetInCall();
    deep(el, 'pal-conversation', 'pal-controls', 'button[aria-label="Chat"]')!.click();
    const panel = deep(el, 'pal-conversation', 'pal-transcript.panel')!;
    await waitFor(() => !panel.hidden, { what: 'chat open' });
    await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel', 'input') !== null, { what: 'chat input' });
    deep(el, 'pal-conversation', 'pal-transcript.panel', 'input')!.focus();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => panel.hidden, { what: 'chat closed' });
    expect(dialog.open).to.equal(true);
    expect(el.state).to.equal('connected');
  });

  it('Escape with nothing inner open minimises the popup; the call goes on and the launcher says it is live', async () => {
    const { el, dialog } = await widgetInCall();
    deep(el, 'pal-conversation', 'pal-controls', 'button')!.focus();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !dialog.open, { what: 'minimised' });
    expect(el.state).to.equal('connected');
    const launcher = deep(el, '.launcher')!;
    expect(deep(el, '.live')).to.not.equal(null);
    expect(launcher.getAttribute('aria-label') ?? launcher.textContent).to.contain('Call in progress');
    expect(el.shadowRoot!.activeElement).to.equal(launcher);
    launcher.click();
    await waitFor(() => dialog.open, { what: 'reopened' });
    expect(deep(el, 'pal-conversation')).to.not.equal(null);
  });

  it('the minimise button hides the popup during a call', async () => {
    const { el, dialog } = await widgetInCall();
    deep(el, '.minimise')!.click();
    await waitFor(() => !dialog.open, { what: 'minimised' });
    expect(el.state).to.equal('connected');
  });

  it('× during a call asks first: Keep talking stays, End call ends', async () => {
    const { el, service, dialog } = await widgetInCall();
    deep(el, '.close')!.click();
    await waitFor(() => confirmBox(el) !== null, { what: 'confirm' });
    const box = confirmBox(el)!;
    expect(box.textContent).to.contain('End the call?');
    expect(el.shadowRoot!.activeElement?.localName).to.equal('pal-end-confirm');
    expect(deep(el, 'pal-end-confirm')!.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Keep talking');
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => confirmBox(el) === null, { what: 'confirm closed by Escape' });
    expect(dialog.open).to.equal(true);
    expect(el.state).to.equal('connected');
    deep(el, '.close')!.click();
    await waitFor(() => confirmBox(el) !== null, { what: 'confirm' });
    deep<HTMLButtonElement>(el, 'pal-end-confirm', '[role=alertdialog] .keep')!.click();
    await el.updateComplete;
    expect(confirmBox(el)).to.equal(null);
    expect(el.state).to.equal('connected');
    deep(el, '.close')!.click();
    await waitFor(() => confirmBox(el) !== null, { what: 'confirm' });
    deep<HTMLButtonElement>(el, 'pal-end-confirm', '[role=alertdialog] .end-call')!.click();
    await waitFor(() => el.state === 'ended', { what: 'ended' });
    expect(service.transports[0]!.left).to.equal(true);
  });

  it('Escape on an expanded embed asks before ending', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"></div>`);
    wrapper.innerHTML = `<pal-embed deployment-id="d123" expand-options='{"enabled":true}'></pal-embed>`;
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
    await el.startConversation();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await el.updateComplete;
    await waitFor(() => deep(el, 'pal-conversation', 'pal-controls', 'button') !== null, { what: 'controls' });
    deep(el, 'pal-conversation', 'pal-controls', 'button')!.focus();
    await sendKeys({ press: 'Escape' });
    await waitFor(() => confirmBox(el) !== null, { what: 'confirm' });
    expect(el.state).to.equal('connected');
    deep<HTMLButtonElement>(el, 'pal-end-confirm', '[role=alertdialog] .end-call')!.click();
    await waitFor(() => el.state === 'ended', { what: 'ended' });
  });
});
