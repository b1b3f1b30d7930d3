// The preview on a wide embed: the description sits centred under the title, as the title and buttons do;
// on the full-screen landing layout all three start at the same edge.
import { expect, fixture, html } from '@open-wc/testing';
import { defineScreens } from '../../../src/palkit/components/define-screens.js';
import type { PalPreview } from '../../../src/palkit/components/screens/preview.js';

defineScreens();

const centre = (r: DOMRect) => r.left + r.width / 2;
/** A face image as wide as a video frame: its natural width is what widened the copy's box. */
const wideImage = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="teal"/></svg>')}`;

async function preview(layout: string | null): Promise<{ title: DOMRect; description: DOMRect; actions: DOMRect }> {
  const el = await fixture<PalPreview>(html`<div style="width: 956px; height: 540px">
    <pal-preview layout=${layout ?? ''} image-url=${wideImage} heading="Meet Nova" description="Ask about sizes, delivery and test rides."></pal-preview>
  </div>`);
  const screen = el.querySelector('pal-preview')!;
  if (!layout) screen.removeAttribute('layout');
  await screen.updateComplete;
  const image = screen.shadowRoot!.querySelector('img')!;
  if (!image.complete) await new Promise((resolve) => image.addEventListener('load', resolve, { once: true }));
  const part = (selector: string) => screen.shadowRoot!.querySelector(selector)!;
  return { title: textBox(part('h2')), description: textBox(part('p')), actions: part('.actions').getBoundingClientRect() };
}

/** Where the element's text is drawn (not its block, which may be wider). */
function textBox(element: Element): DOMRect {
  const range = document.createRange();
  range.selectNodeContents(element);
  return range.getBoundingClientRect();
}

describe('preview layout', () => {
  it('centres the description under the title on a wide screen', async () => {
    const { title, description, actions } = await preview(null);
    expect(description.width).to.be.greaterThan(0);
    expect(Math.abs(centre(description) - centre(title))).to.be.lessThan(2);
    expect(Math.abs(centre(description) - centre(actions))).to.be.lessThan(2);
  });

  it('starts the description at the title’s edge on the full-screen layout', async () => {
    const { title, description } = await preview('full-screen');
    expect(Math.abs(description.left - title.left)).to.be.lessThan(2);
  });
});
