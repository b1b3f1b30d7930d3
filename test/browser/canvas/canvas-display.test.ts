import { expect, waitUntil } from '@open-wc/testing';
import { waitFor } from '../helpers/wait-for.js';
import { protocolStats } from '../../../src/protocol/interactions.js';
import { canvasRig, idPattern, type Rig } from './canvas-helpers.js';

describe('pal-canvas display cards', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));

  it('renders safe Markdown as elements, never as HTML, and records a dismiss', async () => {
    const body =
      '# Plan\nSome **bold** and *soft* text with `code`.\n\n- one\n- [docs](https://example.com/docs)\n- [bad](javascript:alert(1))\n\n<img src=x onerror="window.__pwned=1">';
    await r.show('canvas_show_text', { title: 'Summary', body, format: 'markdown' });
    expect(r.$('h2').textContent).to.equal('Summary');
    expect(r.$('.prose h3').textContent).to.equal('Plan');
    expect(r.$('.prose strong').textContent).to.equal('bold');
    expect(r.$('.prose em').textContent).to.equal('soft');
    expect(r.$('.prose code').textContent).to.equal('code');
    expect(r.$$('.prose ul li')).to.have.length(3);
    const links = r.$$<HTMLAnchorElement>('.prose a');
    expect(links.map((a) => a.href)).to.deep.equal(['https://example.com/docs']);
    expect(links[0]!.rel).to.contain('noopener');
    expect(r.$('img')).to.be.null;
    expect(r.$('.prose').textContent).to.contain('<img src=x');
    expect((window as { __pwned?: number }).__pwned).to.be.undefined;
    await expect(r.el).to.be.accessible();
    r.$('button.close').click();
    await r.settle();
    expect(r.card()).to.be.null;
    expect(r.link.posted[0]).to.deep.include({ component: 'canvas.text', type: 'dismiss', value: {} });
    expect(r.link.posted[0]!.interaction_id).to.match(idPattern('tc1', 'dismiss'));
  });

  it('shows plain text as text', async () => {
    await r.show('canvas_show_text', { body: '**not bold** <b>x</b>' });
    expect(r.$('.plain').textContent).to.equal('**not bold** <b>x</b>');
    expect(r.$('.plain b')).to.be.null;
  });

  it('draws bar, line and pie charts in SVG with a data table', async () => {
    const data = [
      { label: 'Q1', value: 10 },
      { label: 'Q2', value: 25 },
      { label: 'Q3', value: 15 },
    ];
    await r.show('canvas_show_chart', { chart_type: 'bar', title: 'Revenue', x_label: 'Quarter', y_label: 'k$', data });
    expect(r.$$('svg rect.bar')).to.have.length(3);
    const heights = r.$$<SVGRectElement>('svg rect.bar').map((b) => parseFloat(b.getAttribute('height')!));
    expect(heights[1]).to.be.greaterThan(heights[2]!).and.greaterThan(heights[0]!);
    expect(r.$('svg').getAttribute('aria-label')).to.contain('Q2 25');
    expect(r.$$('.sr-only table tbody tr')).to.have.length(3);
    await expect(r.el).to.be.accessible();
    await r.show('canvas_show_chart', { chart_type: 'line', data }, 'tc2');
    expect(r.$$('svg line.line'), 'a segment between each two points').to.have.length(2);
    expect(r.$$('svg circle'), 'a dot at each point').to.have.length(3);
    await r.show('canvas_show_chart', { chart_type: 'pie', data }, 'tc3');
    expect(r.$$('svg path')).to.have.length(3);
    expect(r.$('.legend').textContent).to.contain('50%');
    await expect(r.el).to.be.accessible();
  });

  it('shows alerts by severity and dismisses them by themselves after auto_dismiss_seconds', async () => {
    await r.show('canvas_show_alert', {
      severity: 'warning',
      title: 'Heads up',
      body: 'The office closes early today.',
      auto_dismiss_seconds: 1,
    });
    expect(r.card()!.classList.contains('severity-warning')).to.be.true;
    expect(r.card()!.textContent).to.contain('Warning: The office closes early today.');
    await expect(r.el).to.be.accessible();
    // The alert's own timer (auto_dismiss_seconds: 1) dismisses it: wait for that state, not for a time.
    await waitFor(() => r.card() === null, { timeout: 3000, what: 'the alert to dismiss itself' });
    await r.settle();
    expect(r.card()).to.be.null;
    expect(r.link.posted[0]).to.deep.include({ component: 'canvas.alert', type: 'dismiss' });
    expect(r.link.posted[0]!.metadata).to.deep.include({ reason: 'auto_dismiss' });
  });

  it('embeds an https scheduling page and records a Calendly booking from its origin only', async () => {
    await r.show('canvas_show_scheduling_embed', { scheduling_url: 'https://calendly.com/acme/intro' });
    const frame = r.$<HTMLIFrameElement>('iframe');
    // Firefox gives the frame its window a moment after it is attached (the page itself cannot load here).
    await waitUntil(() => frame.contentWindow !== null, 'the frame has a window');
    const src = new URL(frame.src);
    expect(src.origin + src.pathname).to.equal('https://calendly.com/acme/intro');
    expect(src.searchParams.get('embed_type')).to.equal('Inline');
    expect(frame.title).to.equal('Schedule a meeting');
    const booking = {
      event: 'calendly.event_scheduled',
      payload: { event: { uri: 'https://api.calendly.com/scheduled_events/E1' }, invitee: { uri: 'https://api.calendly.com/invitees/I1' } },
    };
    // A message as the frame's page would post it. That page cannot load here (no internet), and a Firefox
    // frame whose cross-origin load failed has a window this page cannot name as a message's source: the
    // frame is sent to an empty page for the test to post as.
    const blank = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = 'about:blank';
    await blank;
    const nameable = () => {
      try {
        return new MessageEvent('message', { source: frame.contentWindow }).source !== null;
      } catch {
        return false;
      }
    };
    await waitUntil(nameable, 'the frame has a window that can send a message', { timeout: 5000 });
    const fromFrame = (origin: string) =>
      window.dispatchEvent(new MessageEvent('message', { origin, data: booking, source: frame.contentWindow }));
    fromFrame('https://evil.example');
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://calendly.com', data: booking, source: window }));
    await r.settle();
    expect(r.link.posted).to.have.length(0);
    fromFrame('https://calendly.com');
    await r.settle();
    expect(r.link.posted[0]).to.deep.include({ component: 'canvas.scheduling_embed', type: 'submit' });
    expect(r.link.posted[0]!.value).to.deep.equal({
      event_uri: 'https://api.calendly.com/scheduled_events/E1',
      invitee_uri: 'https://api.calendly.com/invitees/I1',
    });
    expect(r.card()!.textContent).to.contain('Response sent');
  });
});

describe('pal-canvas lifecycle', () => {
  let r: Rig;
  beforeEach(async () => (r = await canvasRig()));

  it('keeps one card at a time, in the asked safe area', async () => {
    await r.show('canvas_show_text', { body: 'first', layout: { preferred_slot: 'safe-area-left' } });
    expect(r.el.getAttribute('card-side')).to.equal('left');
    const stage = r.el.getBoundingClientRect();
    expect(r.card()!.getBoundingClientRect().left - stage.left).to.be.lessThan(stage.width / 2);
    await r.show('canvas_show_alert', { body: 'second' }, 'tc2');
    expect(r.el.shadowRoot!.querySelectorAll('[part="card"]')).to.have.length(1);
    expect(r.el.card?.toolCallId).to.equal('tc2');
    expect(r.el.getAttribute('card-side')).to.equal('right');
    expect(r.card()!.getBoundingClientRect().right).to.be.greaterThan(stage.left + stage.width / 2);
  });

  it('patches the visible card with update_component and clears it with canvas_clear', async () => {
    await r.show('canvas_show_text', { title: 'Live', body: 'v1' });
    await r.show('update_component', { patch: { body: 'v2' } }, 'u1');
    expect(r.$('.plain').textContent).to.equal('v2');
    expect(r.$('h2').textContent).to.equal('Live');
    await r.show('update_component', { patch: { body: 'other' }, target_tool_call_id: 'nope' }, 'u2');
    expect(r.$('.plain').textContent).to.equal('v2');
    await r.show('update_component', { patch: { body: 'x'.repeat(4001) } }, 'u3');
    expect(r.$('.plain').textContent).to.equal('v2');
    expect(r.link.posted.at(-1)).to.deep.include({ tool_call_id: 'u3', component: 'canvas.text', type: 'error' });
    await r.show('canvas_clear', {}, 'c1');
    expect(r.card()).to.be.null;
    expect(r.link.posted.at(-1)).to.deep.include({ tool_call_id: 'tc1', component: 'canvas.text', type: 'clear', value: {} });
  });

  it('records no clear when the PAL clears a card whose answer is still being recorded', async () => {
    await r.show('canvas_show_input', { prompt: 'Email?' });
    const input = r.$<HTMLInputElement>('input');
    input.value = 'a@b.example';
    input.dispatchEvent(new Event('input'));
    r.$<HTMLButtonElement>('button[type="submit"]').click();
    // The PAL reacts to the recorded answer before the endpoint's reply reaches the page.
    r.link.toolCall('canvas_clear', {}, 'c1');
    await r.settle();
    expect(r.card()).to.be.null;
    expect(r.link.posted.map((p) => p.type)).to.deep.equal(['submit']);
  });

  it('keeps the user’s choices when an update changes a question', async () => {
    await r.show('canvas_show_question', {
      question: 'Pick',
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    });
    r.$$<HTMLInputElement>('input[type="radio"]')[0]!.click();
    await r.show(
      'update_component',
      {
        patch: {
          question: 'Pick one',
          options: [
            { id: 'a', label: 'A+' },
            { id: 'c', label: 'C' },
          ],
        },
      },
      'u1',
    );
    expect(r.$('legend').textContent).to.equal('Pick one');
    expect(r.$$<HTMLInputElement>('input[type="radio"]')[0]!.checked).to.be.true;
  });

  it('does not render cards with invalid arguments and records an error interaction', async () => {
    const before = protocolStats.ignored;
    await r.show('canvas_show_input', { prompt: 'x'.repeat(241) }, 'bad1');
    await r.show('canvas_show_question', { question: 'Only one?', options: [{ id: 'a', label: 'A' }] }, 'bad2');
    await r.show('canvas_show_scheduling_embed', { scheduling_url: 'http://calendly.com/acme' }, 'bad3');
    await r.show('canvas_show_text', '{not json', 'bad4');
    await r.show('canvas_show_hologram', {}, 'bad5');
    expect(r.card()).to.be.null;
    expect(protocolStats.ignored - before).to.equal(5);
    const errors = r.link.posted.map((p) => [p.tool_call_id, p.component, p.type, (p.value as { code: string }).code]);
    expect(errors).to.deep.equal([
      ['bad1', 'canvas.input', 'error', 'invalid_arguments'],
      ['bad2', 'canvas.question', 'error', 'invalid_arguments'],
      ['bad3', 'canvas.scheduling_embed', 'error', 'invalid_arguments'],
      ['bad4', 'canvas.text', 'error', 'invalid_arguments'],
      ['bad5', 'canvas.hologram', 'error', 'unknown_component'],
    ]);
    expect((r.link.posted[0]!.value as { message: string }).message).to.contain('240');
  });

  it('ignores tools that are not canvas actions and malformed messages', async () => {
    const before = protocolStats.ignored;
    await r.show('lookup_order', { id: 3 });
    r.link.deliver({ event_type: 'conversation.tool_call', properties: { name: 'canvas_show_text' } });
    r.link.deliver(42);
    await r.settle();
    expect(r.card()).to.be.null;
    expect(r.link.posted).to.have.length(0);
    expect(protocolStats.ignored - before).to.equal(2);
  });

  it('dismisses with Escape', async () => {
    await r.show('canvas_show_text', { body: 'bye' });
    r.$('button.close').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await r.settle();
    expect(r.card()).to.be.null;
    expect(r.link.posted[0]!.type).to.equal('dismiss');
  });
});
