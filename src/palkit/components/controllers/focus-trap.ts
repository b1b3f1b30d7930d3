// Keeps Tab and Shift+Tab inside a container while it is active, across nested shadow roots (a modal
// <dialog> alone lets focus leave to the browser's own UI).
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const TABBABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"]), video[controls], audio[controls]';

/** Tabbable elements in document order, descending into shadow roots. */
export function tabbables(root: Element | ShadowRoot): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (node: Element | ShadowRoot): void => {
    for (const child of Array.from(node.children)) {
      const el = child as HTMLElement;
      if (el.matches(TABBABLE) && !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.checkVisibility?.() !== false)
        found.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
      visit(el);
    }
  };
  visit(root);
  return found;
}

/** The focused element itself, not the shadow host that document.activeElement reports. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

export class FocusTrapController implements ReactiveController {
  readonly #container: () => HTMLElement | null;
  readonly #onKeyDown = (event: KeyboardEvent): void => {
    const container = this.#container();
    if (event.key !== 'Tab' || !container) return;
    const items = tabbables(container);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = deepActiveElement();
    if (event.shiftKey && (active === first || !items.includes(active as HTMLElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !items.includes(active as HTMLElement))) {
      event.preventDefault();
      first.focus();
    }
  };

  constructor(host: ReactiveControllerHost & HTMLElement, container: () => HTMLElement | null) {
    this.#container = container;
    host.addController(this);
    host.addEventListener('keydown', this.#onKeyDown);
  }

  hostConnected(): void {}
}
