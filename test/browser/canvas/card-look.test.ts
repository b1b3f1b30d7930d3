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
