// What a visitor sees of a card, in every engine: what is there for screen readers only is never painted.
import { expect } from '@open-wc/testing';
import { show } from '../helpers/boxes.js';
import { canvasRig, type Rig } from './canvas-helpers.js';

const RIDING = [
  { label: 'Trail', value: 40 },
  { label: 'Road', value: 25 },
  { label: 'City', value: 20 },
  { label: 'Gravel', value: 15 },
];

describe('pal-canvas cards as a visitor sees them', () => {
  let r: Rig;
  beforeEach(async () => {
    r = await canvasRig();
  });

  for (const chart_type of ['bar', 'line', 'pie'] as const)
    it(`paints nothing of a ${chart_type} chart's data table, which is for screen readers`, async () => {
      await r.show('canvas_show_chart', { chart_type, title: 'Where riders ride', data: RIDING });
      const cells = r.$$('caption, th, td');
      expect(cells.length, 'the table is there, for screen readers').to.equal(1 + 2 + 2 * RIDING.length);
      // Firefox painted a hidden table's caption ("Chart data") over the pie: what is drawn at its place.
      for (const cell of cells) {
        const box = cell.getBoundingClientRect();
        const hit = r.el.shadowRoot!.elementFromPoint(box.left + Math.min(4, box.width / 2), box.top + box.height / 2);
        expect(hit !== null && cell.contains(hit), `"${cell.textContent}" ${show(box)} painted`).to.equal(false);
      }
    });
});

// WebKit's native dark radio painted unchecked as a white disc with a dark centre, as a checked one looks.
// Computed style, since a browser test cannot read the painted pixels of a shadow-root input in every engine:
// the card draws its own radios, and a checked one must differ from an unchecked one in fill and ring.
describe('pal-canvas choices in the dark theme', () => {
  for (const kind of ['radio', 'checkbox'] as const)
    it(`draws a checked ${kind} unlike an unchecked one`, async () => {
      const r = await canvasRig();
      r.el.parentElement!.style.colorScheme = 'dark';
      await r.show('canvas_show_question', {
        question: 'Which plan?',
        multi_select: kind === 'checkbox',
        options: [
          { id: 'a', label: 'Basic' },
          { id: 'b', label: 'Pro' },
        ],
      });
      const [on, off] = r.$$<HTMLInputElement>(`input[type="${kind}"]`);
      on!.click();
      await r.settle();
      const [a, b] = [getComputedStyle(on!), getComputedStyle(off!)];
      expect(a.appearance, 'drawn by the card, not the engine').to.equal('none');
      expect(a.backgroundImage + a.backgroundColor).to.not.equal(b.backgroundImage + b.backgroundColor);
      expect(a.borderTopColor).to.not.equal(b.borderTopColor);
    });
});
