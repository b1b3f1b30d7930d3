// A deployment's customization (colours, radius, font) as a stylesheet adopted into the element's shadow
// root: a page whose Content-Security-Policy has no 'unsafe-inline' for styles refuses a rendered <style>.
// Where stylesheets cannot be adopted (Lit falls back to <style> there too), it renders one.
import {
  html,
  nothing,
  supportsAdoptingStyleSheets,
  unsafeCSS,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';

export class CustomizationStyles implements ReactiveController {
  #sheet: CSSStyleSheet | null = null;
  #css = '';
  #applied: string | null = null;

  constructor(private readonly host: ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment }) {
    host.addController(this);
  }

  /** Call from render() with the customization's CSS; what it returns goes into the template. */
  render(css: string): TemplateResult | typeof nothing {
    this.#css = css;
    return supportsAdoptingStyleSheets ? nothing : html`<style>${unsafeCSS(css)}</style>`;
  }

  hostUpdated(): void {
    const root = this.host.renderRoot;
    if (!supportsAdoptingStyleSheets || !(root instanceof ShadowRoot) || this.#applied === this.#css) return;
    this.#sheet ??= new CSSStyleSheet();
    this.#sheet.replaceSync(this.#css);
    this.#applied = this.#css;
    // After the element's own styles, as the rendered <style> was.
    if (!root.adoptedStyleSheets.includes(this.#sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#sheet];
  }
}
