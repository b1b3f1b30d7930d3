// Where a deployment requires consent, the visitor accepts its terms on the preview before the call, and
// the start carries exactly the text that was shown (the service keeps it as the receipt).
import { expect, fixture, html } from '@open-wc/testing';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, recordEvents, useFakeService } from '../helpers/deployment.js';

const TERMS = 'I agree that this call is with an AI and may be reviewed.';

describe('consent before the call', () => {
  it('asks for the terms on the preview, refuses to start without them, and sends the accepted text', async () => {
    const service = useFakeService({
      customization: { show_haircheck: false, consent: { required: true, text: TERMS, terms_url: 'https://example.com/terms' } },
    });
    const events = recordEvents(['pal-error']);
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
    await el.updateComplete;
    const preview = deep(el, 'pal-preview')!;
    await (preview as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(deep(preview, '[part=consent] label')!.textContent).to.contain(TERMS);
    expect(deep<HTMLAnchorElement>(preview, '[part=consent] a')!.href).to.equal('https://example.com/terms');
    await expect(preview).to.be.accessible();

    deep<HTMLButtonElement>(preview, '[part=start]')!.click();
    await (preview as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(deep(preview, '#consent-error')!.textContent).to.contain('Please accept the terms');
    const box = deep<HTMLInputElement>(preview, '[part=consent] input')!;
    expect(box.getAttribute('aria-invalid')).to.equal('true');
    expect(preview.shadowRoot!.activeElement).to.equal(box, 'focus goes to the checkbox');
    expect(service.calls.some((c) => c.url.endsWith('/start'))).to.equal(false);
    await expect(preview).to.be.accessible();

    box.click();
    deep<HTMLButtonElement>(preview, '[part=start]')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    const start = service.calls.find((c) => c.url.endsWith('/start'))!;
    expect((start.body as { accepted_terms?: string }).accepted_terms).to.equal(TERMS);
    events.stop();
    expect(events.seen).to.deep.equal([]);
  });

  it('asks nothing where consent is not required', async () => {
    const service = useFakeService({ customization: { show_haircheck: false, consent: { required: false, text: TERMS } } });
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"><pal-embed deployment-id="d123"></pal-embed></div>`);
    const el = wrapper.querySelector('pal-embed') as PalEmbed;
    await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
    await el.updateComplete;
    expect(deep(el, 'pal-preview', '[part=consent]')).to.equal(null);
    deep<HTMLButtonElement>(el, 'pal-preview', '[part=start]')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    expect('accepted_terms' in (service.calls.find((c) => c.url.endsWith('/start'))!.body as object)).to.equal(false);
  });
});
