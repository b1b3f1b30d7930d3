import { expect, fixture, html } from '@open-wc/testing';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, recordEvents, useFakeService } from '../helpers/deployment.js';

// An element given attributes it cannot use says so: the visitor sees a plain error screen instead of an
// endless loading state, and the page's developer gets pal-error with what is wrong.
describe('deployment elements with bad attributes', () => {
  const errors = () => recordEvents(['pal-error']);

  it('without deployment-id: the misconfigured screen (no retry) and pal-error no_deployment; setting one recovers', async () => {
    useFakeService();
    const seen = errors();
    const el = await fixture<PalEmbed>(html`<pal-embed></pal-embed>`);
    await waitFor(() => deep(el, 'pal-error-screen') !== null, { what: 'error screen' });
    seen.stop();
    expect(seen.seen.map((e) => (e.detail as { code: string }).code)).to.deep.equal(['no_deployment']);
    const screen = deep(el, 'pal-error-screen')!;
    expect(deep(screen, '[role="alert"]')!.textContent).to.contain('not set up correctly');
    expect(deep(screen, '[part="retry"]')).to.equal(null);
    await expect(el).to.be.accessible();

    el.setAttribute('deployment-id', 'd123');
    await waitFor(() => deep(el, 'pal-preview') !== null, { what: 'the preview once deployment-id is set' });
  });

  it('a deployment-id set right after connecting, as frameworks do, raises nothing', async () => {
    useFakeService();
    const seen = errors();
    const el = document.createElement('pal-embed') as PalEmbed;
    (await fixture<HTMLDivElement>(html`<div></div>`)).append(el);
    el.deploymentId = 'd123';
    await waitFor(() => deep(el, 'pal-preview') !== null, { what: 'preview' });
    // The preview's own render (where a bad attribute would surface) is over.
    await el.updateComplete;
    await (deep(el, 'pal-preview') as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    seen.stop();
    expect(seen.seen).to.deep.equal([]);
  });

  it('an api-base that is not an http(s) address: no request leaves, the error screen, pal-error invalid_attribute', async () => {
    const service = useFakeService();
    const seen = errors();
    const el = await fixture<PalEmbed>(html`<pal-embed deployment-id="d123" api-base="pal.example.com"></pal-embed>`);
    await waitFor(() => deep(el, 'pal-error-screen') !== null, { what: 'error screen' });
    seen.stop();
    const [error] = seen.seen.map((e) => e.detail as { code: string; message: string });
    expect(error!.code).to.equal('invalid_attribute');
    expect(error!.message).to.contain('api-base');
    expect(service.calls.length, 'nothing was fetched from a relative address').to.equal(0);

    el.setAttribute('api-base', 'https://pal.example.com');
    await waitFor(() => deep(el, 'pal-preview') !== null, { what: 'the preview with a good api-base' });
    expect(service.calls[0]!.url).to.match(/^https:\/\/pal\.example\.com\/v2\/deployments\/d123\/init$/);
  });

  it("malformed override-config: pal-error invalid_attribute, and the deployment's own configuration still applies", async () => {
    useFakeService({ customization: { preview: { title: 'From the deployment' } } });
    const seen = errors();
    const el = await fixture<PalEmbed>(html`<pal-embed deployment-id="d123" override-config="{preview: not json"></pal-embed>`);
    await waitFor(() => deep(el, 'pal-preview') !== null, { what: 'preview' });
    await waitFor(() => deep(el, 'pal-preview', 'h2')?.textContent?.includes('From the deployment') === true, { what: 'deployment title' });
    seen.stop();
    expect(seen.seen.map((e) => (e.detail as { code: string }).code)).to.deep.equal(['invalid_attribute']);
  });
});
