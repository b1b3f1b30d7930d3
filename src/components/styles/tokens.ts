// Global design tokens (--pal-*). Every element includes these on :host so a page can override
// any token on the element or an ancestor; deployment customization maps onto the same names.
import { css } from 'lit';

export const tokens = css`
  :host {
    --pal-color-accent: var(--pal-accent, #5b5bf0);
    --pal-color-accent-contrast: #ffffff;
    --pal-color-surface: #ffffff;
    --pal-color-surface-raised: #f6f6f9;
    --pal-color-text: #16161d;
    --pal-color-text-muted: #5c5c6b;
    --pal-color-border: #dedee6;
    --pal-color-danger: #c62828;
    --pal-color-warning: #9a6700;
    --pal-color-success: #1e7d34;
    --pal-color-stage: #0d0d12;
    --pal-radius: 12px;
    --pal-radius-small: 8px;
    --pal-space: 8px;
    --pal-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --pal-font-size: 15px;
    --pal-shadow: 0 8px 32px rgb(0 0 0 / 0.18);
    --pal-focus-ring: 0 0 0 3px color-mix(in srgb, var(--pal-color-accent) 45%, transparent);
    font-family: var(--pal-font);
    font-size: var(--pal-font-size);
    color: var(--pal-color-text);
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      --pal-color-surface: #17171f;
      --pal-color-surface-raised: #22222c;
      --pal-color-text: #f1f1f5;
      --pal-color-text-muted: #a5a5b4;
      --pal-color-border: #34343f;
    }
  }
  :host([theme='dark']) {
    --pal-color-surface: #17171f;
    --pal-color-surface-raised: #22222c;
    --pal-color-text: #f1f1f5;
    --pal-color-text-muted: #a5a5b4;
    --pal-color-border: #34343f;
  }
`;
