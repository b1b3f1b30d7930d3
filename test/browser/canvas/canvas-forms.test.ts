import { expect } from '@open-wc/testing';
import { canvasRig, idPattern, type Rig } from './canvas-helpers.js';

const click = (el: HTMLElement) => el.click();

describe('pal-canvas question', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));

  it('renders 2–10 options and records the chosen option', async () => {
    await r.show('canvas_show_question', {
      question: 'Which plan?',
      options: [
        { id: 'opt_1', label: 'Basic' },
        { id: 'opt_2', label: 'Pro' },
      ],
    });
    expect(r.$('legend').textContent).to.equal('Which plan?');
    expect(r.$$('input[type="radio"]')).to.have.length(2);
    await expect(r.el).to.be.accessible();
    click(r.$$('input[type="radio"]')[1]!);
    await r.settle();
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted).to.have.length(1);
    const body = r.link.posted[0]!;
    expect(body).to.deep.include({ tool_call_id: 'tc1', component: 'canvas.question', component_version: 'v1', type: 'submit' });
    expect(body.value).to.deep.equal({ selected_option_ids: ['opt_2'], skipped: false });
    expect(body.interaction_id).to.match(idPattern('tc1', 'submit'));
    expect(r.events).to.have.length(1);
    expect(r.events[0]!.detail.interaction_id).to.equal(body.interaction_id);
    expect(r.events[0]!.bubbles && r.events[0]!.composed).to.be.true;
    expect(r.card()).to.be.null;
  });

  it('supports several answers with a free-text Other, and refuses an empty answer', async () => {
    await r.show('canvas_show_question', {
      question: 'Which days?',
      multi_select: true,
      allow_other: true,
      options: [
        { id: 'mon', label: 'Monday' },
        { id: 'tue', label: 'Tuesday' },
        { id: 'wed', label: 'Wednesday' },
      ],
    });
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.$('.error').textContent).to.contain('Choose an option');
    expect(r.link.posted).to.have.length(0);
    const boxes = r.$$<HTMLInputElement>('input[type="checkbox"]');
    expect(boxes).to.have.length(4);
    click(boxes[0]!);
    click(boxes[3]!);
    await r.settle();
    const other = r.$<HTMLInputElement>('input.other');
    other.value = 'Weekends';
    other.dispatchEvent(new Event('input'));
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted[0]!.value).to.deep.equal({ selected_option_ids: ['mon'], other_text: 'Weekends', skipped: false });
  });

  it('records a skip when skipping is allowed', async () => {
    await r.show('canvas_show_question', {
      question: 'Q',
      allow_skip: true,
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    });
    click(r.$$('button.secondary')[0]!);
    await r.settle();
    expect(r.link.posted[0]).to.deep.include({ type: 'skip', value: { skipped: true } });
  });
});

describe('pal-canvas input', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));
  const typeAndSubmit = async (value: string) => {
    const input = r.$<HTMLInputElement>('input');
    input.value = value;
    input.dispatchEvent(new Event('input'));
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
  };

  it('validates an email on the client and records the value', async () => {
    await r.show('canvas_show_input', { prompt: 'Your email?', placeholder: 'you@example.com', input_type: 'email', required: true });
    expect(r.$('label').textContent).to.equal('Your email?');
    await expect(r.el).to.be.accessible();
    await typeAndSubmit('not-an-email');
    expect(r.$('input').getAttribute('aria-invalid')).to.equal('true');
    expect(r.$('.error').textContent).to.contain('valid email');
    expect(r.link.posted).to.have.length(0);
    await expect(r.el).to.be.accessible();
    await typeAndSubmit(' ada@example.com ');
    expect(r.link.posted[0]).to.deep.include({ component: 'canvas.input', type: 'submit', value: { value: 'ada@example.com' } });
  });

  it('records numbers as numbers, and a skip', async () => {
    await r.show('canvas_show_input', { prompt: 'How many seats?', input_type: 'number', allow_skip: true });
    await typeAndSubmit('twelve');
    expect(r.link.posted).to.have.length(0);
    await typeAndSubmit('12.5');
    expect(r.link.posted[0]!.value).to.deep.equal({ value: 12.5 });
    await r.show('canvas_show_input', { prompt: 'Phone?', input_type: 'tel', allow_skip: true }, 'tc2');
    click(r.$('button.secondary'));
    await r.settle();
    expect(r.link.posted[1]).to.deep.include({ tool_call_id: 'tc2', type: 'skip' });
    expect(r.link.posted[1]!.value).to.deep.equal({});
  });

  it('keeps the value and offers a retry when the post fails, reusing the interaction id', async () => {
    await r.show('canvas_show_input', { prompt: 'Name?' });
    r.link.failNextPosts = 1;
    await typeAndSubmit('Ada');
    expect(r.card()).to.exist;
    expect(r.$('.failed').textContent).to.contain('could not be sent');
    expect(r.$<HTMLInputElement>('input').value).to.equal('Ada');
    expect(r.el.card?.status).to.equal('failed');
    await expect(r.el).to.be.accessible();
    click(r.$('.failed button'));
    await r.settle();
    expect(r.link.posted).to.have.length(1);
    expect(r.link.posted[0]!.value).to.deep.equal({ value: 'Ada' });
    expect(r.events).to.have.length(1);
    expect(r.events[0]!.detail.interaction_id).to.equal(r.link.posted[0]!.interaction_id);
    expect(r.card()).to.be.null;
  });
});

describe('pal-canvas calendar', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));

  it('picks a date in a month view, with keyboard navigation', async () => {
    await r.show('canvas_show_calendar', {
      title: 'Pick a day',
      mode: 'date_picker',
      initial_year: 2030,
      initial_month: 3,
      date_range: { start: '2030-03-01', end: '2030-04-30' },
    });
    expect(r.$('h2').textContent).to.equal('Pick a day');
    expect(r.$$('button[data-date]')).to.have.length(31);
    await expect(r.el).to.be.accessible();
    const first = r.$<HTMLButtonElement>('button[data-date="2030-03-01"]');
    expect(first.tabIndex).to.equal(0);
    first.focus();
    first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    await r.settle();
    expect(r.el.shadowRoot!.activeElement?.getAttribute('data-date')).to.equal('2030-03-08');
    click(r.$('button[data-date="2030-03-08"]'));
    await r.settle();
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted[0]).to.deep.include({ component: 'canvas.calendar', type: 'submit', value: { selected_date: '2030-03-08' } });
  });

  it('selects several slots in slot_picker mode', async () => {
    await r.show('canvas_show_calendar', {
      title: 'Times',
      mode: 'slot_picker',
      multi_select: true,
      slots: ['2030-03-04T09:00:00Z', { start: '2030-03-04T10:00:00Z', end: '2030-03-04T10:30:00Z', label: 'Demo' }],
    });
    const boxes = r.$$<HTMLInputElement>('input[type="checkbox"]');
    expect(boxes).to.have.length(2);
    click(boxes[0]!);
    click(boxes[1]!);
    await r.settle();
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted[0]!.value).to.deep.equal({ selected_slots: ['2030-03-04T09:00:00Z', '2030-03-04T10:00:00Z'] });
  });

  it('picks a date then a slot in date_time mode, and a range in range mode', async () => {
    const slot = '2030-03-05T15:00:00';
    await r.show('canvas_show_calendar', { title: 'When', mode: 'date_time', slots: [slot] });
    expect(r.$<HTMLButtonElement>('button[data-date="2030-03-04"]').disabled).to.be.true;
    click(r.$('button[data-date="2030-03-05"]'));
    await r.settle();
    click(r.$('input[type="radio"]'));
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted[0]!.value).to.deep.equal({ selected_slot: slot });

    await r.show('canvas_show_calendar', { title: 'Stay', mode: 'range', initial_year: 2030, initial_month: 6 }, 'tc2');
    click(r.$('button[data-date="2030-06-20"]'));
    await r.settle();
    click(r.$('button[data-date="2030-06-12"]'));
    await r.settle();
    expect(r.$$('button.in-range').length).to.equal(7);
    r.$<HTMLFormElement>('form').requestSubmit();
    await r.settle();
    expect(r.link.posted[1]!.value).to.deep.equal({ selected_range: { start: '2030-06-12', end: '2030-06-20' } });
  });
});
