// Several widgets on one page: those in the same corner stack instead of covering each other. Each widget
// is moved away from its corner's edge (--pal-widget-stack-offset) by the launchers before it in document
// order, plus a gap.
const GAP = 12;
const widgets = new Set<HTMLElement & { corner: string | null }>();

function restack(): void {
  const byCorner = new Map<string, HTMLElement[]>();
  const ordered = [...widgets].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  for (const widget of ordered) {
    const corner = widget.corner ?? 'bottom-right';
    const queue = byCorner.get(corner) ?? [];
    queue.push(widget);
    byCorner.set(corner, queue);
  }
  for (const queue of byCorner.values()) {
    let offset = 0;
    for (const widget of queue) {
      const value = `${offset}px`;
      if (widget.style.getPropertyValue('--pal-widget-stack-offset') !== value)
        widget.style.setProperty('--pal-widget-stack-offset', value);
      offset += widget.offsetHeight + GAP;
    }
  }
}

export const cornerStack = {
  join(widget: HTMLElement & { corner: string | null }): void {
    widgets.add(widget);
    restack();
  },
  leave(widget: HTMLElement & { corner: string | null }): void {
    widgets.delete(widget);
    widget.style.removeProperty('--pal-widget-stack-offset');
    restack();
  },
  /** A widget was drawn (its corner or launcher size may have changed). */
  redrawn: restack,
};
