// Focus across screen changes. When the visitor's screen is replaced (Start pressed, the call ends…), the
// focused button goes with it and focus would fall to the page body; instead it moves to the new screen's
// main control (the call's first control) or, on the other screens, its heading. Focus is only moved when
// it was inside the element, so a loading widget never takes focus from the page.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Host = ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode };
type Screen = HTMLElement & { updateComplete?: Promise<unknown>; focusFirst?: () => void };

const SCREEN = '[part~="screen"], [part~="conversation"]';

export class ScreenFocusController implements ReactiveController {
  #screen: Element | null = null;
  #hadFocus = false;

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostUpdate(): void {
    this.#hadFocus = this.host.matches(':focus-within');
  }

  hostUpdated(): void {
    const screen = this.host.renderRoot.querySelector<Screen>(SCREEN);
    if (!screen || screen === this.#screen) return;
    const first = this.#screen === null;
    this.#screen = screen;
    if (!first && this.#hadFocus && !this.host.matches(':focus-within')) void focusScreen(screen);
  }
}

async function focusScreen(screen: Screen): Promise<void> {
  await screen.updateComplete;
  if (typeof screen.focusFirst === 'function') return screen.focusFirst();
  const heading = screen.shadowRoot?.querySelector<HTMLElement>('h1, h2');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}
