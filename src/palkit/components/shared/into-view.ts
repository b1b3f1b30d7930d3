// The call starts where the visitor can see it (issue 54): an element on a page that the call begins below
// the fold, or cut at the window's bottom edge, scrolls the page so that it is whole in view (its top
// first when it is taller than the window). Smoothly, unless the visitor asked for reduced motion.

export function bringIntoView(element: Element): void {
  if (typeof innerHeight === 'undefined') return;
  const box = element.getBoundingClientRect();
  if (box.height === 0 || (box.top >= 0 && box.bottom <= innerHeight)) return;
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({
    block: box.height <= innerHeight ? 'nearest' : 'start',
    inline: 'nearest',
    behavior: still ? 'auto' : 'smooth',
  });
}
