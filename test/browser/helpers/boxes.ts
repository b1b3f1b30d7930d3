// Measuring what a visitor sees: boxes that overlap or hold one another, and what is drawn on top at a point.

export const show = (r: DOMRect): string =>
  `{l ${Math.round(r.left)}, t ${Math.round(r.top)}, r ${Math.round(r.right)}, b ${Math.round(r.bottom)}}`;
export const overlap = (a: DOMRect, b: DOMRect): boolean =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
export const inside = (a: DOMRect, b: DOMRect): boolean =>
  a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;

/** Whether `element` (or something inside it) is what is drawn at the middle of its box, through shadow roots. */
export function onTop(element: Element, box = element.getBoundingClientRect()): boolean {
  let root: Document | ShadowRoot = document;
  let hit: Element | null = null;
  for (;;) {
    const next: Element | null = root.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!next || next === hit) break;
    hit = next;
    if (!next.shadowRoot) break;
    root = next.shadowRoot;
  }
  for (let node: Node | null = hit; node; node = node instanceof ShadowRoot ? node.host : node.parentNode)
    if (node === element) return true;
  return false;
}
