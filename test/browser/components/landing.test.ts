import { expect, fixture, html } from '@open-wc/testing';
import type { PalLanding } from '../../../src/palkit/components/landing/landing.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

describe('pal-landing', () => {
  for (const template of ['split', 'stacked', 'centered', 'spotlight', 'minimal'] as const) {
    it(`renders the ${template} hero with logo, title, description and CTA links, and is accessible`, async () => {
      useFakeService({
        channel: 'landing-page',
        customization: {
          landing_page: {
            template,
            logo_url: 'https://example.com/logo.png',
            title: 'Meet Ada',
            description: 'Ask about our products',
            cta_links: [
              { label: 'Pricing', url: 'https://example.com/pricing' },
              { label: 'Bad', url: 'javascript:alert(1)' },
            ],
          },
        },
      });
      const el = await fixture<PalLanding>(html`<pal-landing deployment-id="d123"></pal-landing>`);
      await waitFor(() => el.session?.state === 'idle');
      await el.updateComplete;
      expect(el.template).to.equal(template);
      expect(deep(el, `.${template}`)).to.not.equal(null);
      expect(deep(el, 'h1')!.textContent).to.equal('Meet Ada');
      expect(deep<HTMLImageElement>(el, '.logo')!.src).to.equal('https://example.com/logo.png');
      const links = [...el.shadowRoot!.querySelectorAll('a')];
      if (template !== 'minimal') expect(links.map((a) => a.textContent)).to.deep.equal(['Pricing']);
      expect(deep(el, 'pal-preview')).to.not.equal(null);
      await expect(el).to.be.accessible();
    });
  }

  it('puts the hero beside the conversation (split) on wide screens and above it (stacked)', async () => {
    useFakeService({ customization: { landing_page: { template: 'split', title: 'A' } } });
    const split = await fixture<PalLanding>(html`<pal-landing deployment-id="d123" style="width:1200px"></pal-landing>`);
    await waitFor(() => split.session?.state === 'idle');
    await split.updateComplete;
    const [hero, stage] = [deep(split, '.hero')!.getBoundingClientRect(), deep(split, '.stage')!.getBoundingClientRect()];
    expect(stage.left).to.be.greaterThan(hero.right - 1);
    useFakeService({ customization: { landing_page: { template: 'stacked', title: 'A' } } });
    const stacked = await fixture<PalLanding>(html`<pal-landing deployment-id="d123" style="width:1200px"></pal-landing>`);
    await waitFor(() => stacked.session?.state === 'idle');
    await stacked.updateComplete;
    expect(deep(stacked, '.stage')!.getBoundingClientRect().top).to.be.greaterThan(
      deep(stacked, '.hero')!.getBoundingClientRect().bottom - 1,
    );
  });
});
