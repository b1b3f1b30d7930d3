import { css } from 'lit';
import { srOnlyStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';

export const disclosureStyles = [
  tokens,
  srOnlyStyles,
  css`
    :host {
      display: block;
      --pal-disclosure-background: color-mix(in srgb, var(--pal-color-stage) 82%, transparent);
      --pal-disclosure-color: #ffffff;
      --pal-disclosure-max-height: 8.5em;
    }
    :host([state='hidden']),
    :host([state='dismissed']) {
      /* Keeps the live region in the tree but takes no room on the stage. */
      pointer-events: none;
    }
    [part='banner'] {
      display: flex;
      align-items: center;
      gap: var(--pal-space);
      margin: var(--pal-space);
      padding: calc(var(--pal-space) * 0.5) calc(var(--pal-space) * 0.75) calc(var(--pal-space) * 0.5) calc(var(--pal-space) * 1.5);
      border-radius: var(--pal-radius-small);
      background: var(--pal-disclosure-background);
      color: var(--pal-disclosure-color);
      backdrop-filter: blur(6px);
      line-height: 1.4;
      /* A long disclosure scrolls inside the banner rather than growing over the call controls. */
      max-height: var(--pal-disclosure-max-height);
      overflow: auto;
      pointer-events: auto;
    }
    [part='banner'][hidden] {
      display: none;
    }
    .icon {
      flex: none;
      font-weight: 700;
      font-size: 0.8em;
      padding: 2px 6px;
      border-radius: 4px;
      background: var(--pal-color-accent);
      color: var(--pal-color-accent-contrast);
    }
    /*
     * Wrapped, never cut: the disclosure is read whole at every width (issue 54: cut to one line, "with an AI
     * system" fell under the ellipsis). A disclosure past its max-height scrolls inside the banner.
     */
    [part='text'] {
      flex: 1;
      min-width: 0;
      margin: 0;
      white-space: pre-line;
      overflow-wrap: anywhere;
    }
    [part='dismiss'] {
      flex: none;
      border: 0;
      border-radius: 50%;
      width: 28px;
      height: 28px;
      background: transparent;
      color: inherit;
      font: inherit;
      font-size: 18px;
      line-height: 1;
      cursor: pointer;
    }
    [part='dismiss']:hover {
      background: rgb(255 255 255 / 0.15);
    }
    [part='dismiss']:focus-visible {
      outline: none;
      box-shadow: var(--pal-focus-ring);
    }
    @media (prefers-reduced-motion: no-preference) {
      [part='banner'] {
        animation: enter 200ms ease-out;
      }
      @keyframes enter {
        from {
          opacity: 0;
          transform: translateY(-6px);
        }
      }
    }
  `,
];
