// Global design tokens (--pal-*). Their defaults are registered once per page as inherited custom
// properties (CSS.registerProperty), so no element redeclares them: a value a page (or a deployment's
// customization) sets on pal-widget, pal-embed or any ancestor reaches every nested part. Colours are
// light-dark() pairs resolved by each element's color-scheme, which the theme attribute sets and nested
// parts inherit.
import { css } from 'lit';

const DEFAULTS: Record<string, string> = {
  '--pal-color-accent-contrast': '#ffffff',
  '--pal-color-surface': 'light-dark(#ffffff, #17171f)',
  '--pal-color-surface-raised': 'light-dark(#f6f6f9, #22222c)',
  '--pal-color-text': 'light-dark(#16161d, #f1f1f5)',
  '--pal-color-text-muted': 'light-dark(#5c5c6b, #a5a5b4)',
  '--pal-color-border': 'light-dark(#dedee6, #3c3c48)',
  '--pal-color-danger': 'light-dark(#c62828, #ff8a80)',
  '--pal-color-warning': 'light-dark(#9a6700, #e3b341)',
  '--pal-color-success': 'light-dark(#1e7d34, #56d364)',
  '--pal-color-stage': '#0d0d12',
  '--pal-radius': '12px',
  '--pal-radius-small': '8px',
  '--pal-space': '8px',
  '--pal-font': "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  '--pal-font-size': '15px',
  '--pal-shadow': '0 8px 32px rgb(0 0 0 / 0.18)',
};

/**
 * The defaults for a browser with or without `light-dark()`. Safari 16.4–17.4 registers properties but has
 * no light-dark(): there a pair would be invalid where used and every surface transparent, so it gets the
 * light colour (no dark theme, but opaque surfaces and readable text).
 */
export function tokenDefaults(lightDark: boolean): Record<string, string> {
  if (lightDark) return DEFAULTS;
  return Object.fromEntries(
    Object.entries(DEFAULTS).map(([name, value]) => [name, value.replace(/^light-dark\(\s*([^,]+),[^)]*\)$/, '$1')]),
  );
}

/** Registers the token defaults; a second copy of palkit on the page finds them registered already. */
export function registerTokens(): void {
  if (typeof CSS === 'undefined' || !('registerProperty' in CSS)) return;
  const defaults = tokenDefaults(CSS.supports('color', 'light-dark(#000, #fff)'));
  for (const [name, initialValue] of Object.entries(defaults)) {
    try {
      CSS.registerProperty({ name, syntax: '*', inherits: true, initialValue });
    } catch {
      // Already registered (another bundle of palkit on the page): same names, same meaning.
    }
  }
}
registerTokens();

/**
 * Derived tokens only (they follow the inherited ones on every element), the theme's colour scheme, and
 * the element's base type. `--pal-accent` is the public accent token; `--pal-color-focus` overrides the
 * focus ring's colour (default: the accent, at least 3:1 on the light and dark surfaces).
 */
export const tokens = css`
  :host {
    --pal-color-accent: var(--pal-accent, #5b5bf0);
    --pal-focus-ring: 0 0 0 2px var(--pal-color-surface), 0 0 0 4px var(--pal-color-focus, var(--pal-color-accent));
    font-family: var(--pal-font);
    font-size: var(--pal-font-size);
    color: var(--pal-color-text);
    /* Inherited by every scroller inside (chat log, card, sheet): Firefox drew a dark theme's track white. */
    scrollbar-color: var(--pal-color-text-muted) transparent;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([theme='auto']) {
    color-scheme: light dark;
  }
`;

/** For the outermost elements (widget, embed, landing): light unless a theme says otherwise. */
export const outerTokens = css`
  :host(:not([theme])) {
    color-scheme: light;
  }
`;
