// Two widgets on one page in the same corner stack instead of covering each other.
import { expect, fixture, html } from '@open-wc/testing';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('two widgets on one page', () => {
  it('stack in a shared corner, and close up again when one leaves', async () => {
    useFakeService({ customization: { widget: { variant: 'full' } } });
    const page = await fixture<HTMLDivElement>(
      html`<div><pal-widget deployment-id="d1"></pal-widget><pal-widget deployment-id="d2"></pal-widget></div>`,
    );
    const [first, second] = [...page.querySelectorAll<PalWidget>('pal-widget')];
    await waitFor(() => first!.session?.deployment != null && second!.session?.deployment != null, { what: 'init' });
    await first!.updateComplete;
    await second!.updateComplete;
    const a = deep(first!, '.launcher')!.getBoundingClientRect();
    const b = deep(second!, '.launcher')!.getBoundingClientRect();
    expect(overlap(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).to.equal(false);
    expect(Math.round(a.right)).to.equal(Math.round(b.right));
    first!.remove();
    await waitFor(() => Math.round(deep(second!, '.launcher')!.getBoundingClientRect().bottom) === Math.round(a.bottom), {
      what: 'second takes the corner',
    });
  });
});
