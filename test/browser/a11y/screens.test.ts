// axe on every screen a visitor meets, in each deployment element, on a laptop and a phone: preview,
// gate, device check, the call with captions, the transcript, text mode, each canvas card, the rating and the end.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import type { StandInTransport } from '../../../stories/support/transport.js';
import { nextTurn, waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

type Kind = 'widget' | 'embed' | 'landing';

const CARDS: Array<[string, Record<string, unknown>]> = [
  [
    'canvas_show_question',
    {
      question: 'Which plan suits you?',
      options: [
        { id: 'basic', label: 'Basic' },
        { id: 'pro', label: 'Pro' },
      ],
      allow_other: true,
    },
  ],
  ['canvas_show_input', { prompt: 'Your email?', placeholder: 'you@example.com', input_type: 'email', required: true }],
  [
    'canvas_show_calendar',
    {
      title: 'Pick a day',
      mode: 'date_picker',
      initial_year: 2030,
      initial_month: 3,
      date_range: { start: '2030-03-01', end: '2030-04-30' },
    },
  ],
  [
    'canvas_show_chart',
    {
      chart_type: 'bar',
      title: 'Revenue',
      x_label: 'Quarter',
      y_label: 'k$',
      data: [
        { label: 'Q1', value: 10 },
        { label: 'Q2', value: 14 },
      ],
    },
  ],
  ['canvas_show_text', { title: 'Summary', body: 'You chose **Pro**:\n\n- 5 seats\n- support', format: 'markdown' }],
  ['canvas_show_alert', { severity: 'warning', title: 'Heads up', body: 'The office closes early today.' }],
  ['canvas_show_scheduling_embed', { title: 'Book a call', scheduling_url: 'https://calendly.com/acme/intro' }],
];

async function mount(kind: Kind): Promise<PalDeploymentElement> {
  const template =
    kind === 'widget'
      ? html`<pal-widget deployment-id="d123"></pal-widget>`
      : kind === 'embed'
        ? html`<div style="height:700px"><pal-embed deployment-id="d123"></pal-embed></div>`
        : html`<pal-landing deployment-id="d123"></pal-landing>`;
  const mounted = await fixture<HTMLElement>(template);
  const el = (mounted.matches('pal-widget, pal-landing') ? mounted : mounted.firstElementChild) as PalDeploymentElement;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  if (kind === 'widget') await (el as PalWidget).open();
  await el.updateComplete;
  return el;
}

/** Lets every nested element render and entrance animations finish (the ones that end; spinners go on). */
async function settle(el: PalDeploymentElement): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await el.updateComplete;
    await nextTurn();
    const ending = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)));
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  }
}

async function accessible(el: PalDeploymentElement, screen: string): Promise<void> {
  await settle(el);
  try {
    await expect(el).to.be.accessible();
  } catch (error) {
    throw new Error(`${screen}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function say(transport: StandInTransport, eventType: string, properties: Record<string, unknown>): void {
  transport.receive({ message_type: 'conversation', event_type: eventType, conversation_id: 'c42', properties });
}

for (const [width, height] of [
  [1366, 900],
  [390, 844],
] as const) {
  describe(`every screen is accessible at ${width} px`, () => {
    before(() => setViewport({ width, height }));
    after(() => setViewport({ width: 800, height: 600 }));

    for (const kind of ['widget', 'embed', 'landing'] as const) {
      it(`pal-${kind}`, async function () {
        this.timeout(60_000);
        const service = useFakeService(
          {
            has_password: true,
            channel: kind === 'landing' ? 'landing-page' : kind,
            customization: { show_haircheck: true, landing_page: { title: 'Meet Ada', description: 'Ask about our products' } },
          },
          { '/rating': { status: 200, body: { stars: 5, comment: null, rated_at: '2026-11-23T10:00:00Z' } } },
        );
        const el = await mount(kind);
        await waitFor(() => deep(el, 'pal-preview') !== null, { what: 'preview' });
        await accessible(el, 'preview');

        deep<HTMLButtonElement>(el, 'pal-preview', '[part=start]')!.click();
        await waitFor(() => el.session!.gate === 'password', { what: 'gate' });
        await accessible(el, 'gate');

        el.session!.submitPassword('open sesame');
        await waitFor(() => el.session!.mode === 'haircheck', { what: 'device check' });
        await accessible(el, 'device check');

        el.session!.confirmHaircheck({});
        await waitFor(() => el.state === 'connected', { what: 'call' });
        const transport = service.transports[0]!;
        say(transport, 'conversation.disclosure', {
          visual_disclosure: 'You are talking with an AI system.',
          verbal_disclosure: '',
          state: 'delivering',
        });
        say(transport, 'conversation.utterance.streaming', {
          role: 'replica',
          speech: 'Hello, how can I help',
          final: false,
          content_index: 0,
        });
        await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.captions') !== null, { what: 'captions' });
        await accessible(el, 'call with captions');

        say(transport, 'conversation.utterance', { role: 'replica', speech: 'Hello, how can I help you today?' });
        say(transport, 'conversation.utterance', { role: 'user', speech: 'Tell me about the Pro plan.' });
        deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!.querySelector<HTMLButtonElement>(`button[aria-label='Chat']`)!.click();
        await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel')?.hidden === false, { what: 'transcript' });
        await accessible(el, 'transcript');
        deep<HTMLButtonElement>(el, 'pal-conversation', '[part=mode-switch]')!.click();
        await waitFor(() => transport.textMode, { what: 'text mode' });
        await accessible(el, 'text mode');
        el.session!.setTextMode(false);
        await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel')?.hidden === true, { what: 'back to voice' });

        for (const [index, [tool, args]] of CARDS.entries()) {
          say(transport, 'conversation.tool_call', { name: tool, arguments: JSON.stringify(args), tool_call_id: `tc${index}` });
          await waitFor(
            () =>
              deep(el, 'pal-conversation', 'pal-canvas', '[part=card]')?.textContent?.includes(
                String(args.title ?? args.question ?? args.prompt),
              ) === true,
            { what: tool },
          );
          await accessible(el, tool);
        }

        await el.endConversation();
        await waitFor(() => deep(el, 'pal-ended', 'form.rating') !== null, { what: 'rating' });
        await accessible(el, 'rating');

        deep<HTMLInputElement>(el, 'pal-ended', 'input[value="5"]')!.click();
        await waitFor(() => !deep<HTMLButtonElement>(el, 'pal-ended', 'form.rating button[type=submit]')!.disabled, {
          what: 'a star chosen',
        });
        deep<HTMLButtonElement>(el, 'pal-ended', 'form.rating button[type=submit]')!.click();
        await waitFor(() => deep(el, 'pal-ended', '.rating-thanks') !== null, { what: 'thanks' });
        await accessible(el, 'ended');
      });
    }
  });
}
