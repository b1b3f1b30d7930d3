// Issue 54, item 7: a customer's Vite app (Lit in dev mode) logged "Element pal-transcript scheduled an update
// … after an update completed": the panel measured its rows in updated() and rendered again. The browser
// tests load Lit's development build (web-test-runner.config.mjs: the `development` export condition), which
// warns exactly as that app's did; no element of the call may.
import { expect, fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
import type { PalTranscript } from '../../../src/palkit/components/transcript/transcript.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { FakeLink, nextFrame } from '../protocol/fake-link.js';
import { deep, useFakeService } from '../helpers/deployment.js';
import { waitFor } from '../helpers/wait-for.js';

defineParts();

/** Lit's dev-mode warnings logged while `run` runs (Lit logs each text once per page: that memory is cleared). */
async function litWarnings(run: () => Promise<void>): Promise<string[]> {
  const issued = (globalThis as { litIssuedWarnings?: Set<string | undefined> }).litIssuedWarnings;
  issued?.clear();
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    warn.apply(console, args);
  };
  try {
    await run();
  } finally {
    console.warn = warn;
  }
  return warnings.filter((w) => /scheduled an update/.test(w));
}

const settle = async (el: { updateComplete: Promise<unknown> }) => {
  for (let i = 0; i < 4; i++) {
    await el.updateComplete;
    await nextFrame();
  }
};

describe('no Lit update-after-update warning', () => {
  it('is the development build of Lit, which warns on an update scheduled in updated()', async () => {
    // The check itself: an element that does what the panel did is caught.
    class PalWarnProbe extends (await import('lit')).LitElement {
      override updated(): void {
        if (!this.dataset.again) {
          this.dataset.again = '1';
          this.requestUpdate();
        }
      }
    }
    customElements.define('pal-warn-probe', PalWarnProbe);
    const warnings = await litWarnings(async () => {
      const el = await fixture<PalWarnProbe>(html`<pal-warn-probe></pal-warn-probe>`);
      await settle(el);
    });
    expect(warnings.join('\n')).to.contain('pal-warn-probe');
  });

  it('from the chat panel as rows of every height arrive, are streamed and wrap at a new width', async () => {
    const link = new FakeLink();
    const warnings = await litWarnings(async () => {
      const el = await fixture<PalTranscript>(
        html`<pal-transcript pal-name="Ava" style="height: 300px; width: 360px" .link=${link}></pal-transcript>`,
      );
      for (let i = 0; i < 30; i++)
        link.event('conversation.utterance', { role: i % 2 ? 'user' : 'replica', speech: `Line ${i} `.repeat(1 + (i % 7) * 4) });
      await settle(el);
      link.event('conversation.utterance.streaming', { role: 'replica', speech: 'We open', final: false });
      await settle(el);
      link.event('conversation.utterance.streaming', {
        role: 'replica',
        speech: 'We open at nine, and on Saturdays at ten, until six in the evening.',
        final: false,
      });
      await settle(el);
      el.style.width = '220px';
      await waitFor(() => el.shadowRoot!.querySelector('li')!.offsetWidth <= 220, { what: 'narrower rows' });
      await settle(el);
      const scroller = el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new Event('scroll'));
      await settle(el);
      expect(el.shadowRoot!.querySelector('li')!.textContent).to.contain('Line 0');
    });
    expect(warnings).to.deep.equal([]);
  });

  it('from a widget call with the chat open', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const warnings = await litWarnings(async () => {
      const el = await fixture<PalWidget>(html`<pal-widget deployment-id="d123"></pal-widget>`);
      await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
      await el.startConversation({ text: true });
      await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel:not([hidden])') !== null, { what: 'chat open' });
      for (let i = 0; i < 12; i++)
        service.transports[0]!.receive({
          message_type: 'conversation',
          event_type: 'conversation.utterance',
          conversation_id: 'c42',
          properties: { role: i % 2 ? 'user' : 'replica', speech: `Sentence ${i} `.repeat(1 + i * 3) },
        });
      const panel = deep(el, 'pal-conversation', 'pal-transcript.panel') as unknown as PalTranscript;
      await waitFor(() => panel.shadowRoot!.querySelectorAll('li').length > 0, { what: 'rows' });
      await settle(panel);
    });
    expect(warnings).to.deep.equal([]);
  });
});
