// Issue 25, item 5: a keyboard user keeps their place in the widget as in the embed and landing page:
// opening the popup puts focus on the screen's main control (not ×), Start and Join move it to the
// call's first control, End to the after-call heading, and the Chat button into the message box.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

/** The focused element, through every shadow root. */
function deepActive(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
const describeActive = () => {
  const a = deepActive();
  return a
    ? `${a.tagName}${a.getAttribute('aria-label') ? ` "${a.getAttribute('aria-label')}"` : ''} ${a.textContent?.trim().slice(0, 30) ?? ''}`
    : 'nothing';
};

async function widget(init: Parameters<typeof useFakeService>[0] = {}): Promise<PalWidget> {
  useFakeService(init);
  const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
  await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
  await el.updateComplete;
  return el;
}

async function openByKeyboard(el: PalWidget): Promise<void> {
  deep(el, '.launcher')!.focus();
  await sendKeys({ press: 'Enter' });
  await waitFor(() => el.opened && deep(el, 'pal-preview') !== null, { what: 'popup open' });
}

describe('widget focus (keyboard)', () => {
  it("opening the popup focuses the preview's Start button, not ×", async () => {
    const el = await widget({ customization: { show_haircheck: false } });
    await openByKeyboard(el);
    await waitFor(
      () =>
        deepActive()?.textContent?.trim() !== '' &&
        deepActive()?.closest('pal-preview') == null &&
        deep(el, 'pal-preview')!.shadowRoot!.contains(deepActive()),
      { what: `focus on the preview (is ${describeActive()})` },
    );
    expect(deepActive()!.tagName).to.equal('BUTTON');
    expect(deepActive()!.getAttribute('aria-label')).to.not.equal('Close');
  });

  it("Start, then End: focus goes to the call's first control, then the after-call heading, never the body", async () => {
    const el = await widget({ customization: { show_haircheck: false } });
    await openByKeyboard(el);
    deep(el, 'pal-preview', 'button.primary, button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await waitFor(() => deepActive()?.closest('[role=toolbar]') != null, { what: `focus in the call controls (is ${describeActive()})` });
    expect(deepActive()!.getAttribute('aria-label')).to.equal('Microphone');
    deep(el, 'pal-conversation', 'pal-controls', '.end')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.mode === 'ended', { what: 'ended' });
    await waitFor(() => deepActive()?.tagName === 'H2', { what: `focus on the after-call heading (is ${describeActive()})` });
  });

  it("Join on the device check moves focus to the call's first control", async () => {
    const el = await widget({ customization: { show_haircheck: true } });
    await openByKeyboard(el);
    deep(el, 'pal-preview', 'button.primary, button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => deep(el, 'pal-haircheck') !== null && el.mode === 'haircheck', { what: 'device check' });
    const join = () =>
      [...deep(el, 'pal-haircheck')!.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
        /join/i.test(b.textContent ?? ''),
      );
    await waitFor(() => join() !== undefined && !join()!.disabled, { what: 'join button' });
    join()!.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await waitFor(() => deepActive()?.closest('[role=toolbar]') != null, { what: `focus in the call controls (is ${describeActive()})` });
  });

  it('the Chat button puts the cursor in the message box', async () => {
    const el = await widget({ customization: { show_haircheck: false } });
    await openByKeyboard(el);
    await el.startConversation();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    const chat = () =>
      deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!.querySelector<HTMLButtonElement>('button[aria-label="Chat"]')!;
    await waitFor(() => chat() !== null, { what: 'chat button' });
    chat().focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => deepActive()?.getAttribute('name') === 'chat', { what: `focus in the message box (is ${describeActive()})` });
  });
});
