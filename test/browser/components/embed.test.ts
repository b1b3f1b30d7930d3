import { expect, fixture, html } from '@open-wc/testing';
import { waitFor } from '../helpers/wait-for.js';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { ALL_EVENTS, deep, recordEvents, useFakeService } from '../helpers/deployment.js';

async function mount(width: number, attrs = '') {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:${width}px"></div>`);
  wrapper.innerHTML = `<pal-embed deployment-id="d123" ${attrs}></pal-embed>`;
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.updateComplete;
  return el;
}

describe('pal-embed', () => {
  it('is 16:9 in containers ≥ 900px and 9:16 below', async () => {
    useFakeService();
    const wide = await mount(1000);
    const wideBox = deep(wide, '.card')!.getBoundingClientRect();
    expect(Math.round(wideBox.height)).to.equal(Math.round((1000 * 9) / 16));
    const narrow = await mount(360);
    const narrowBox = deep(narrow, '.card')!.getBoundingClientRect();
    expect(Math.round(narrowBox.height)).to.equal(640);
  });

  it('fills a parent with a definite size', async () => {
    useFakeService();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:500px;height:300px"><pal-embed deployment-id="d123"></pal-embed></div>`,
    );
    const el = wrapper.querySelector('pal-embed')!;
    await waitFor(() => el.session?.state === 'idle');
    expect(deep(el, '.card')!.getBoundingClientRect().height).to.equal(300);
  });

  it('shows the preview (full-screen layout), gets through the call to the after-call copy, firing every lifecycle event', async () => {
    useFakeService({ customization: { show_haircheck: false, after_call: { title: 'Bye now', btn_title: 'Again' } } });
    const events = recordEvents(ALL_EVENTS);
    const el = await mount(1000, 'layout="full-screen"');
    const preview = deep(el, 'pal-preview')!;
    expect(preview.getAttribute('layout')).to.equal('full-screen');
    await expect(el).to.be.accessible();
    deep(preview, 'button')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await el.updateComplete;
    expect(deep(el, 'pal-conversation')).to.not.equal(null);
    await el.endConversation();
    await el.updateComplete;
    const ended = deep(el, 'pal-ended')!;
    await (ended as unknown as { updateComplete: Promise<void> }).updateComplete;
    expect(ended.shadowRoot!.textContent).to.contain('Bye now').and.contain('Again');
    await expect(el).to.be.accessible();
    events.stop();
    const modes = events.seen.filter((e) => e.type === 'pal-mode-change').map((e) => (e.detail as { mode: string }).mode);
    expect(modes).to.deep.equal(['call', 'ended']);
    const states = events.seen.filter((e) => e.type === 'pal-state-change').map((e) => (e.detail as { state: string }).state);
    expect(states).to.deep.equal(['initializing', 'idle', 'connecting', 'connected', 'disconnecting', 'ended']);
    expect(events.seen.find((e) => e.type === 'pal-ready')!.detail).to.deep.equal({ deploymentId: 'd123' });
    expect(events.seen.find((e) => e.type === 'pal-conversation-ended')!.detail).to.deep.equal({ conversationId: 'c42' });
  });

  it('expands into a modal for the call with expand-options', async () => {
    useFakeService({ customization: { show_haircheck: false } });
    const el = await mount(1000, `expand-options='{"enabled":true,"aspect":"vertical","max_height":600}'`);
    expect(el.expanded).to.equal(false);
    await el.startConversation();
    await el.updateComplete;
    expect(el.expanded).to.equal(true);
    const card = deep(el, '.card')!;
    expect(card.classList.contains('vertical')).to.equal(true);
    expect(card.getBoundingClientRect().height).to.be.at.most(600);
    await el.endConversation();
    await el.updateComplete;
    expect(el.expanded).to.equal(false);
    expect(deep<HTMLDialogElement>(el, '.card')!.open).to.equal(true);
  });

  it('passes conversational-context, custom-greeting, memory-stores and visitor-token to start; override-config and updateConfig reach the screen', async () => {
    const service = useFakeService({
      customization: { show_haircheck: false, preview: { title: 'From the deployment', description: 'Kept' } },
    });
    const el = await mount(
      1000,
      `conversational-context="ctx" custom-greeting="Hello!" memory-stores="m1, m2" visitor-token="eyJ.signed.token" override-config='{"preview":{"title":"Overridden"},"accent_color":"rgb(1, 2, 3)"}'`,
    );
    const preview = () => deep(el, 'pal-preview')!.shadowRoot!.textContent!;
    expect(preview()).to.contain('Overridden').and.contain('Kept');
    expect(getComputedStyle(el).getPropertyValue('--pal-color-accent').trim()).to.equal('rgb(1, 2, 3)');
    el.updateConfig({ preview: { title: 'Patched' } });
    await el.updateComplete;
    await (deep(el, 'pal-preview') as unknown as { updateComplete: Promise<void> }).updateComplete;
    expect(preview()).to.contain('Patched').and.contain('Kept');
    await el.startConversation();
    expect(service.calls.find((c) => c.url.endsWith('/start'))!.body).to.deep.equal({
      conversational_context: 'ctx',
      custom_greeting: 'Hello!',
      memory_stores: ['m1', 'm2'],
      visitor_token: 'eyJ.signed.token',
      visitor_key: localStorage.getItem('palkit-visitor-key'),
    });
  });

  it('relays tool calls and protocol messages, sends messages, and reports sendMessage outside a call', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const events = recordEvents(ALL_EVENTS);
    const el = await mount(1000);
    el.sendMessage('too early');
    await el.startConversation();
    service.transports[0]!.receive({
      message_type: 'conversation',
      event_type: 'conversation.tool_call',
      conversation_id: 'c42',
      seq: 7,
      turn_idx: 2,
      properties: { name: 'lookup', arguments: '{"q":1}', tool_call_id: 'tc1' },
    });
    el.sendMessage('hello');
    el.sendChat('typed');
    el.sendMessage({ event_type: 'conversation.tool_result', properties: { tool_call_id: 'tc1', output: 'ok', status: 'success' } });
    events.stop();
    expect(events.seen.find((e) => e.type === 'pal-error')!.detail).to.include({ code: 'not_connected' });
    expect(events.seen.find((e) => e.type === 'pal-tool-call')!.detail).to.deep.equal({
      name: 'lookup',
      arguments: '{"q":1}',
      tool_call_id: 'tc1',
      seq: 7,
      turn_idx: 2,
    });
    expect((events.seen.find((e) => e.type === 'pal-protocol-message')!.detail as { event_type: string }).event_type).to.equal(
      'conversation.tool_call',
    );
    const sent = service.transports[0]!.sent as { event_type: string; properties: { text?: string } }[];
    expect(sent.map((m) => [m.event_type, m.properties.text])).to.deep.equal([
      ['conversation.respond', 'hello'],
      ['conversation.respond', 'typed'],
      ['conversation.tool_result', undefined],
    ]);
  });

  it('createConversation fires pal-conversation-created; canvas interactions fire pal-canvas-interaction', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const events = recordEvents(ALL_EVENTS);
    const el = await mount(1000);
    expect(await el.createConversation()).to.deep.equal({ conversationId: 'c42' });
    await el.startConversation();
    // The PAL shows an alert card; dismissing it is recorded and reaches the page as pal-canvas-interaction.
    service.transports[0]!.receive({
      message_type: 'conversation',
      event_type: 'conversation.tool_call',
      properties: { name: 'canvas_show_alert', arguments: JSON.stringify({ body: 'Saved' }), tool_call_id: 'tc1' },
    });
    const canvas = await waitUntilFound(() => deep(el, 'pal-conversation', 'pal-canvas'));
    const dismiss = await waitUntilFound(() =>
      [...canvas.shadowRoot!.querySelectorAll('button')].find((b) =>
        /dismiss|close/i.test(b.getAttribute('aria-label') ?? b.textContent ?? ''),
      ),
    );
    dismiss.click();
    await waitUntilFound(() => events.seen.find((e) => e.type === 'pal-canvas-interaction'));
    events.stop();
    expect(events.seen.find((e) => e.type === 'pal-conversation-created')!.detail).to.deep.equal({ conversationId: 'c42' });
    expect(events.seen.filter((e) => e.type === 'pal-canvas-interaction')).to.have.length(1);
    expect(events.seen.find((e) => e.type === 'pal-canvas-interaction')!.detail).to.include({
      tool_call_id: 'tc1',
      component: 'canvas.alert',
      type: 'dismiss',
    });
  });

  it('shows the unavailable screen in words with Try again where it helps, and the error screen', async () => {
    useFakeService({ is_available: false, unavailable_reason: 'busy' });
    const busy = await mount(1000);
    const screen = deep(busy, 'pal-unavailable')!;
    expect(screen.shadowRoot!.textContent).to.contain('busy');
    expect(deep(screen, 'button')!.textContent).to.contain('Try again');
    await expect(busy).to.be.accessible();
    useFakeService({}, { '/init': { status: 404, body: { error: 'deployment_not_found' } } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="nope"></pal-embed></div>`);
    const missing = wrapper.querySelector('pal-embed')!;
    await waitFor(() => missing.state === 'error', { what: 'error' });
    await missing.updateComplete;
    const error = deep(missing, 'pal-error-screen')!;
    expect(error.shadowRoot!.textContent).to.contain('does not exist');
    await expect(missing).to.be.accessible();
  });
});

function waitUntilFound<T>(find: () => T | undefined | null, timeoutMs = 3000): Promise<T> {
  return waitFor(find, { timeout: timeoutMs, what: 'the element' }) as Promise<T>;
}
