// Focus across screen changes. When the visitor's screen is replaced (Start pressed, the call ends…), the
// focused button goes with it and focus would fall to the page body; instead it moves to the new screen's
// main control (the call's first control) or, on the other screens, its heading. Focus is only moved when
// it was on the screen being replaced, so a loading widget never takes focus from the page (nor from the
// widget's header). Whether focus is still "in the element" afterwards says nothing: in the widget's
// modal popup the browser parks it on the dialog when the focused button goes.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { tabbables } from '../controllers/focus-trap.js';

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
    this.#hadFocus = this.#screen !== null && focusIn(this.#screen);
  }

  hostUpdated(): void {
    const screen = this.host.renderRoot.querySelector<Screen>(SCREEN);
    if (!screen || screen === this.#screen) return;
    const first = this.#screen === null;
    this.#screen = screen;
    if (!first && this.#hadFocus && !focusIn(screen)) void focusScreen(screen);
  }

  /**
   * Puts focus where the visitor starts on the current screen (the widget does when its popup opens):
   * the call's first control, else the screen's first control (the preview's Start), else its heading.
   */
  async focusCurrent(): Promise<void> {
    const screen = this.host.renderRoot.querySelector<Screen>(SCREEN);
    if (!screen) return;
    await screen.updateComplete;
    const first = typeof screen.focusFirst === 'function' ? null : tabbables(screen.shadowRoot ?? screen)[0];
    if (first) first.focus();
    else await focusScreen(screen);
  }
}

/** Whether the focused element is this element or inside it, through shadow roots. */
function focusIn(element: Element): boolean {
  for (let active = document.activeElement; active; active = active.shadowRoot?.activeElement ?? null) {
    if (active === element || element.contains(active)) return true;
  }
  return false;
}

async function focusScreen(screen: Screen): Promise<void> {
  await screen.updateComplete;
  if (typeof screen.focusFirst === 'function') return screen.focusFirst();
  const heading = screen.shadowRoot?.querySelector<HTMLElement>('h1, h2');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}
