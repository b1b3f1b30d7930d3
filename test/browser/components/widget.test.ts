import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { ALL_EVENTS, deep, recordEvents, useFakeService } from '../helpers/deployment.js';

async function ready(el: PalWidget) {
  await waitFor(() => el.session?.deployment !== null && el.session?.state === 'idle', { what: 'init' });
  await el.updateComplete;
}

describe('pal-widget', () => {
  it('paints the launcher from customization.widget and is accessible', async () => {
    useFakeService({ customization: { widget: { variant: 'compact', corner: 'bottom-left', text: 'Ask Ada' } } });
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await ready(el);
    const launcher = deep(el, '.launcher')!;
    expect(launcher.textContent).to.contain('Ask Ada');
    expect(el.getAttribute('corner')).to.equal('bottom-left');
    expect(getComputedStyle(el).left).to.not.equal('auto');
    await expect(el).to.be.accessible();
  });

  it('tiny variant has an icon-only launcher with an accessible name', async () => {
    useFakeService({ customization: { widget: { variant: 'tiny' } } });
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await ready(el);
    const launcher = deep(el, '.launcher')!;
    expect(launcher.getAttribute('aria-label')).to.equal('Talk to us');
    expect(launcher.querySelector('span')).to.equal(null);
  });

  it('names the popup once: the preview heading is the only visible title before the call, the header shows it during the call', async () => {
    const service = useFakeService({
      customization: { show_haircheck: false, widget: { text: 'Talk to Nova' }, preview: { title: 'Talk to Nova' } },
    });
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await ready(el);
    deep(el, '.launcher')!.click();
    await el.updateComplete;
    const preview = deep(el, 'pal-preview')!;
    await (preview as unknown as { updateComplete: Promise<void> }).updateComplete;
    const dialog = deep<HTMLDialogElement>(el, 'dialog')!;
    const visibleTitles = () =>
      [deep(el, '.header')!, preview.shadowRoot!.querySelector('h2')!].filter(
        (node) => node.getBoundingClientRect().height > 0 && (node as HTMLElement).innerText.includes('Talk to Nova'),
      ).length;
    expect(visibleTitles(), 'visible once, as the preview heading').to.equal(1);
    expect(preview.shadowRoot!.querySelector('h2')!.textContent).to.equal('Talk to Nova');
    expect(dialog.getAttribute('aria-label'), 'the popup keeps its name').to.equal('Talk to Nova');
    await el.startConversation();
    await waitFor(() => el.state === 'connected' && service.transports.length > 0, { what: 'connected' });
    await el.updateComplete;
    expect(deep(el, '.header')!.innerText, 'the call has no heading of its own: the header names it').to.contain('Talk to Nova');
  });

  it('opens a modal popup with the preview copy, traps focus, and Escape closes', async () => {
    useFakeService({ customization: { preview: { title: 'Meet Ada', description: 'Our guide', btn_title: 'Talk now' } } });
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await ready(el);
    deep(el, '.launcher')!.click();
    await el.updateComplete;
    const dialog = deep<HTMLDialogElement>(el, 'dialog')!;
    expect(dialog.matches(':modal')).to.equal(true);
    expect(el.hasAttribute('open')).to.equal(true);
    const preview = deep(el, 'pal-preview')!;
    await (preview as unknown as { updateComplete: Promise<void> }).updateComplete;
    expect(preview.shadowRoot!.textContent).to.contain('Meet Ada').and.contain('Our guide').and.contain('Talk now');
    await expect(el).to.be.accessible();
    for (let i = 0; i < 6; i++) {
      await sendKeys({ press: 'Tab' });
      // Focus never leaves the popup: the active element chain passes through the dialog.
      const inside = document.activeElement === el && dialog.contains(el.shadowRoot!.activeElement);
      expect(inside, `focus after ${i + 1} Tabs: ${document.activeElement?.tagName} / ${el.shadowRoot!.activeElement?.tagName}`).to.equal(
        true,
      );
    }
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !dialog.open, { what: 'dialog closed' });
    expect(el.hasAttribute('open')).to.equal(false);
  });

  it('close() from the page keeps a live call; the popup close ends it once confirmed', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const events = recordEvents(ALL_EVENTS);
    const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
    await ready(el);
    await el.startConversation();
    expect(deep<HTMLDialogElement>(el, 'dialog')!.open).to.equal(true);
    expect(el.state).to.equal('connected');
    await el.updateComplete;
    expect(deep(el, 'pal-conversation')).to.not.equal(null);
    await el.close();
    expect(el.state).to.equal('connected');
    expect(deep(el, '.live')).to.not.equal(null);
    await el.open();
    deep(el, '.close')!.click();
    await waitFor(() => deep(el, 'pal-end-confirm', '.end-call') !== null, { what: 'confirm' });
    deep(el, 'pal-end-confirm', '[role=alertdialog] .end-call')!.click();
    await waitFor(() => el.state === 'ended', { what: 'ended' });
    expect(service.transports[0]!.left).to.equal(true);
    await waitFor(() => !deep<HTMLDialogElement>(el, 'dialog')!.open, { what: 'closed' });
    events.stop();
    const types = events.seen.map((e) => e.type);
    expect(types).to.include.members([
      'pal-ready',
      'pal-conversation-started',
      'pal-conversation-ended',
      'pal-state-change',
      'pal-mode-change',
    ]);
    expect(events.seen.find((e) => e.type === 'pal-conversation-started')!.detail).to.deep.equal({ conversationId: 'c42' });
  });

  it('shows the full-screen sheet on narrow viewports', async () => {
    useFakeService();
    const { setViewport } = await import('@web/test-runner-commands');
    await setViewport({ width: 375, height: 700 });
    try {
      const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
      await ready(el);
      await el.open();
      const rect = deep(el, 'dialog')!.getBoundingClientRect();
      expect(rect.width).to.equal(375);
      expect(rect.height).to.equal(700);
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
