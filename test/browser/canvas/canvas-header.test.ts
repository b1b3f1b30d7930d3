// Issue 25, item 9: a card's header row is never empty, and no text is said twice on screen (a question
// without a title heads its card; "Choose a time." does not repeat a slot picker's title).
import { expect } from '@open-wc/testing';
import { canvasRig, type Rig } from './canvas-helpers.js';

/** Whether the element takes visible room (a screen-reader-only label is clipped to 1 px or less). */
const seen = (el: Element) => {
  const box = el.getBoundingClientRect();
  return box.width > 1 && box.height > 1 && getComputedStyle(el).clipPath === 'none';
};

describe('pal-canvas card header', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));

  it('heads an untitled question with the question itself, said once on screen', async () => {
    await r.show('canvas_show_question', {
      question: 'What would you like to do next?',
      options: [
        { id: 'a', label: 'Tell me more' },
        { id: 'b', label: 'Something else' },
      ],
    });
    expect(r.$('header h2').textContent).to.equal('What would you like to do next?');
    expect(seen(r.$('legend')), 'the legend stays for screen readers only').to.equal(false);
    expect(r.$('legend').textContent).to.equal('What would you like to do next?');
    await expect(r.el).to.be.accessible();
  });

  it('does not repeat a slot picker’s title with "Choose a time."', async () => {
    await r.show('canvas_show_calendar', {
      title: 'Pick a time that suits you',
      mode: 'slot_picker',
      slots: ['2030-05-14T10:00:00Z', '2030-05-14T14:00:00Z'],
    });
    expect(r.$('header h2').textContent).to.equal('Pick a time that suits you');
    const visible = [...r.card()!.querySelectorAll('h2, legend, p, label')].filter(seen).map((e) => e.textContent!.trim());
    expect(visible).to.not.include('Choose a time.');
    await expect(r.el).to.be.accessible();
  });

  it('puts the × of an untitled text card beside its first line, not in a row of its own', async () => {
    await r.show('canvas_show_text', { body: 'Delivery takes three to five working days.' });
    expect(r.card()!.querySelector('header') === null, 'no header row of its own').to.equal(true);
    const close = r.$('button.close').getBoundingClientRect();
    const text = r.$('.plain').getBoundingClientRect();
    expect(close.top, 'same line').to.be.lessThan(text.top + text.height);
    expect(close.bottom).to.be.greaterThan(text.top);
  });
});
