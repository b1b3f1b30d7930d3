// Issue 25, item 9: in the desktop widget's popup (400 × 640, less its header) the device check is taller
// than its room; the mic meter kept 0.45 px of its 8. The screen scrolls instead and the meter stays 8 px.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalHaircheck } from '../../../src/palkit/components/haircheck/haircheck.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep } from '../helpers/deployment.js';

describe('pal-haircheck in a short popup', () => {
  it('keeps the microphone meter 8 px tall and scrolls instead', async () => {
    const box = await fixture<HTMLDivElement>(html`<div style="width: 400px; height: 560px"><pal-haircheck></pal-haircheck></div>`);
    const el = box.querySelector('pal-haircheck') as PalHaircheck;
    await waitFor(() => el.stream !== null, { what: 'camera stream' });
    await el.updateComplete;
    const meter = deep(el, '[role=meter]')!.getBoundingClientRect();
    expect(meter.height).to.be.closeTo(8, 0.5);
    expect(deep(el, '[part=join]')!.getBoundingClientRect().height).to.be.at.least(44);
  });
});
