import { expect, fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
defineParts();
import type { PalDisclosure } from '../../../src/palkit/components/disclosure/disclosure.js';
import { FakeLink } from '../protocol/fake-link.js';

describe('pal-disclosure', () => {
  let link: FakeLink;
  let el: PalDisclosure;
  const banner = () => el.shadowRoot!.querySelector<HTMLElement>('[part="banner"]')!;
  const dismissButton = () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="dismiss"]');
  const status = () => el.shadowRoot!.querySelector('[role="status"]')!;

  beforeEach(async () => {
    link = new FakeLink();
    el = await fixture<PalDisclosure>(html`<pal-disclosure .link=${link}></pal-disclosure>`);
  });

  it('stays hidden until a disclosure arrives', () => {
    expect(el.state).to.equal('hidden');
    expect(banner().hidden).to.be.true;
    expect(status().textContent!.trim()).to.equal('');
  });

  it('shows and announces the banner while delivering, without a dismiss control', async () => {
    link.event('conversation.disclosure', {
      visual_disclosure: 'You are talking to an AI.',
      verbal_disclosure: 'I am an AI.',
      state: 'delivering',
    });
    await el.updateComplete;
    expect(el.getAttribute('state')).to.equal('delivering');
    expect(banner().hidden).to.be.false;
    expect(banner().textContent).to.contain('You are talking to an AI.');
    expect(status().textContent!.trim()).to.equal('You are talking to an AI.');
    const spoken = status().getBoundingClientRect();
    expect(spoken.width <= 1 && spoken.height <= 1, 'the announcement is for screen readers only, not shown twice').to.be.true;
    expect(dismissButton()).to.be.null;
    expect(el.dismiss()).to.be.false;
    await expect(el).to.be.accessible();
  });

  it('becomes dismissible once delivered, and a late delivered message does not bring it back', async () => {
    link.event('conversation.disclosure', { visual_disclosure: '', verbal_disclosure: 'x', state: 'delivering' });
    await el.updateComplete;
    expect(banner().textContent).to.contain('You are interacting with an AI system.');
    link.event('conversation.disclosure', { visual_disclosure: '', verbal_disclosure: 'x', state: 'delivered' });
    await el.updateComplete;
    expect(dismissButton()).to.exist;
    await expect(el).to.be.accessible();
    dismissButton()!.click();
    await el.updateComplete;
    expect(el.state).to.equal('dismissed');
    expect(banner().hidden).to.be.true;
    link.event('conversation.disclosure', { visual_disclosure: '', verbal_disclosure: 'x', state: 'delivered' });
    await el.updateComplete;
    expect(el.state).to.equal('dismissed');
  });

  it('dismisses with Escape once delivered', async () => {
    link.event('conversation.disclosure', { visual_disclosure: 'AI here', verbal_disclosure: 'x', state: 'delivered' });
    await el.updateComplete;
    dismissButton()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(el.state).to.equal('dismissed');
  });

  it('ignores malformed disclosure messages and stops listening when the link is replaced', async () => {
    link.event('conversation.disclosure', { visual_disclosure: 'x', state: 'bogus' });
    await el.updateComplete;
    expect(el.state).to.equal('hidden');
    const other = new FakeLink();
    el.link = other;
    link.event('conversation.disclosure', { visual_disclosure: 'old', verbal_disclosure: 'x', state: 'delivering' });
    await el.updateComplete;
    expect(el.state).to.equal('hidden');
    other.event('conversation.disclosure', { visual_disclosure: 'new', verbal_disclosure: 'x', state: 'delivering' });
    await el.updateComplete;
    expect(el.text).to.equal('new');
  });
});
