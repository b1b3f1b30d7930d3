// A chart's axis and tick labels as painted, from a phone's card to a desktop's: readable (at least 11 px,
// after any scaling of an SVG they sit in), whole and apart from one another.
import { expect } from '@open-wc/testing';
import { inside, overlap, show } from '../helpers/boxes.js';
import { canvasRig } from './canvas-helpers.js';

const SALES = [
  { label: 'Trail', value: 40 },
  { label: 'Road', value: 2500 },
  { label: 'City', value: 20 },
  { label: 'Gravel', value: 15 },
];

/** The font size a label is painted at: its computed size times the scale of the SVG it may sit in. */
function paintedSize(label: Element): number {
  const size = parseFloat(getComputedStyle(label).fontSize);
  const svg = label instanceof SVGElement ? label.closest('svg') : null;
  return svg ? size * svg.getScreenCTM()!.a : size;
}

describe('pal-canvas chart labels as painted', () => {
  for (const chart_type of ['bar', 'line'] as const)
    for (const stageWidth of [320, 390, 900])
      it(`writes a ${chart_type} chart's labels at 11 px or more, whole and apart, on a ${stageWidth} px stage`, async () => {
        const r = await canvasRig();
        r.el.parentElement!.style.width = `${stageWidth}px`;
        await r.show('canvas_show_chart', { chart_type, title: 'Sales', x_label: 'Kind of riding', y_label: 'Bikes sold', data: SALES });
        const labels = r
          .$$('.tick, .axis-label')
          .filter((l) => l.getBoundingClientRect().width > 0 && getComputedStyle(l).visibility !== 'hidden');
        expect(labels.length, 'three ticks, four bands, two axis labels').to.equal(3 + SALES.length + 2);
        const card = r.card()!.getBoundingClientRect();
        for (const label of labels) {
          const box = label.getBoundingClientRect();
          expect(paintedSize(label), `"${label.textContent}" painted size`).to.be.at.least(11);
          expect(inside(box, card), `"${label.textContent}" ${show(box)} inside the card ${show(card)}`).to.equal(true);
          if (label instanceof HTMLElement)
            expect(label.scrollWidth, `"${label.textContent}" cut short`).to.be.at.most(label.clientWidth + 1);
        }
        for (const [i, a] of labels.entries())
          for (const b of labels.slice(i + 1))
            expect(overlap(a.getBoundingClientRect(), b.getBoundingClientRect()), `"${a.textContent}" over "${b.textContent}"`).to.equal(
              false,
            );
      });
});
