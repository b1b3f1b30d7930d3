// Styles shared by the screens and parts: buttons, the centred screen layout, form fields.
import { css } from 'lit';

export const buttonStyles = css`
  button, .button {
    font: inherit;
    cursor: pointer;
    border-radius: var(--pal-radius-small);
    border: 1px solid var(--pal-color-border);
    background: var(--pal-color-surface-raised);
    color: var(--pal-color-text);
    padding: calc(var(--pal-space) * 1.25) calc(var(--pal-space) * 2);
    min-height: 44px;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: var(--pal-space);
  }
  button:focus-visible, .button:focus-visible, input:focus-visible, select:focus-visible {
    outline: none;
    box-shadow: var(--pal-focus-ring);
  }
  .primary {
    background: var(--pal-color-accent);
    border-color: var(--pal-color-accent);
    color: var(--pal-color-accent-contrast);
    font-weight: 600;
  }
  button:disabled { opacity: 0.6; cursor: default; }
`;

export const fieldStyles = css`
  label { display: grid; gap: 4px; font-size: 0.9em; color: var(--pal-color-text-muted); text-align: start; }
  input, select {
    font: inherit;
    color: var(--pal-color-text);
    background: var(--pal-color-surface);
    border: 1px solid var(--pal-color-border);
    border-radius: var(--pal-radius-small);
    padding: var(--pal-space);
    min-height: 44px;
    box-sizing: border-box;
    width: 100%;
  }
  /* 16px text keeps iOS from zooming into focused fields. */
  @media (max-width: 640px), (pointer: coarse) {
    input, select, textarea { font-size: 16px; }
  }
`;

export const screenStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: calc(var(--pal-space) * 2);
    box-sizing: border-box;
    height: 100%;
    padding: calc(var(--pal-space) * 3);
    padding-bottom: max(calc(var(--pal-space) * 3), env(safe-area-inset-bottom));
    text-align: center;
    background: var(--pal-color-surface);
    color: var(--pal-color-text);
    overflow: auto;
  }
  h2 { margin: 0; font-size: 1.35em; line-height: 1.25; }
  p { margin: 0; color: var(--pal-color-text-muted); max-width: 36em; line-height: 1.45; }
  .actions { display: flex; gap: var(--pal-space); flex-wrap: wrap; justify-content: center; }
  [role='alert'] { color: var(--pal-color-danger); }
`;

/** Text for screen readers only (live announcements, chart data tables). */
export const srOnlyStyles = css`
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
