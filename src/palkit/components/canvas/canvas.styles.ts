// pal-canvas's own look: where the card stands (a side of the stage, docked, a chip), its frame,
// header, controls and states; the card kinds' bodies are cards/card-kinds.styles.ts, after these.
import { css } from 'lit';
import { srOnlyStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { cardKindStyles } from './cards/card-kinds.styles.js';

export const canvasStyles = [
  tokens,
  srOnlyStyles,
  css`
    :host {
      --pal-canvas-accent: var(--pal-color-accent);
      --pal-canvas-card-width: 340px;
      --pal-canvas-inset: 16px;
      --pal-canvas-inset-bottom: 88px;
      /* The self view's corner (pal-stage: 28% of the stage's width, at most 200 px, 4:3) and a gap. */
      --pal-canvas-self-clearance: calc(var(--pal-space) * 2 + 0.75 * min(28cqw, 200px));
      position: absolute;
      inset: 0;
      pointer-events: none;
      container-type: size;
      z-index: 2;
    }
    [part='card'] {
      position: absolute;
      top: var(--pal-canvas-self-clearance);
      right: var(--pal-canvas-inset);
      width: min(var(--pal-canvas-card-width), calc(100% - 2 * var(--pal-canvas-inset)));
      max-height: calc(100% - var(--pal-canvas-self-clearance) - var(--pal-canvas-inset-bottom));
      box-sizing: border-box;
      display: flex;
      flex-direction: column;
      overflow: auto;
      pointer-events: auto;
      background: var(--pal-color-surface);
      color: var(--pal-color-text);
      border-radius: var(--pal-radius);
      box-shadow: var(--pal-shadow);
      border-top: 4px solid var(--pal-canvas-accent);
      padding: calc(var(--pal-space) * 1.5);
    }
    :host([card-side='left']) [part='card'] {
      top: var(--pal-canvas-inset);
      right: auto;
      left: var(--pal-canvas-inset);
      max-height: calc(100% - var(--pal-canvas-inset) - var(--pal-canvas-inset-bottom));
    }
    /* Narrow stages: the card spans the width above the controls, whichever side was asked for. */
    @container (max-width: 520px) {
      [part='card'],
      :host([card-side='left']) [part='card'] {
        left: var(--pal-space);
        right: var(--pal-space);
        top: auto;
        bottom: var(--pal-canvas-inset-bottom);
        width: auto;
        max-height: calc(100% - var(--pal-canvas-inset-bottom) - var(--pal-canvas-self-clearance));
      }
    }
    /* Docked (pal-conversation): the layout gives the card its own room; the card fills it and scrolls inside. */
    :host([docked]) {
      position: relative;
      inset: auto;
      z-index: auto;
      container-type: normal;
      display: flex;
      flex-direction: column;
      min-width: 0;
      min-height: 0;
      pointer-events: auto;
    }
    :host([docked]) [part='card'],
    :host([docked][card-side='left']) [part='card'] {
      position: relative;
      inset: auto;
      width: auto;
      max-height: none;
      flex: 1 1 auto;
      min-height: 0;
      border-radius: 0;
      box-shadow: none;
    }
    @media (prefers-reduced-motion: no-preference) {
      [part='card'] {
        animation: card-in 180ms ease-out;
      }
      @keyframes card-in {
        from {
          opacity: 0;
          transform: translateY(8px);
        }
      }
    }
    /* A compact card: one line, its title and "Show", the whole card a tap away. */
    .chip {
      flex-direction: row;
      align-items: center;
      gap: var(--pal-space);
      padding-block: calc(var(--pal-space) * 0.5);
    }
    .chip-open {
      flex: 1;
      min-width: 0;
      display: flex;
      align-items: center;
      gap: var(--pal-space);
      min-height: 36px;
      padding: 0;
      border: 0;
      background: none;
      color: inherit;
      font: inherit;
      text-align: start;
      cursor: pointer;
    }
    .chip-title {
      flex: 1;
      min-width: 0;
      font-weight: 600;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .chip-action {
      flex: none;
      color: var(--pal-canvas-accent);
      font-weight: 600;
    }
    .tools {
      display: flex;
      flex: none;
    }
    header {
      display: flex;
      align-items: flex-start;
      justify-content: space-between;
      gap: var(--pal-space);
    }
    h2 {
      font-size: 1.05em;
      margin: 0 0 var(--pal-space);
    }
    .close,
    .icon {
      border: 0;
      background: transparent;
      color: var(--pal-color-text-muted);
      font: inherit;
      font-size: 20px;
      line-height: 1;
      width: 30px;
      height: 30px;
      border-radius: 50%;
      cursor: pointer;
      flex: none;
    }
    .body > .close {
      float: inline-end;
      margin: -4px -6px 0 var(--pal-space);
    }
    .close:hover,
    .icon:hover {
      background: var(--pal-color-surface-raised);
    }
    button:focus-visible,
    input:focus-visible,
    iframe:focus-visible {
      outline: none;
      box-shadow: 0 0 0 3px color-mix(in srgb, var(--pal-canvas-accent) 45%, transparent);
    }
    form {
      display: flex;
      flex-direction: column;
      gap: var(--pal-space);
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      display: flex;
      flex-direction: column;
      gap: calc(var(--pal-space) / 2);
    }
    legend,
    .prompt {
      font-weight: 600;
      padding: 0;
      margin-bottom: calc(var(--pal-space) / 2);
    }
    .choice {
      display: flex;
      align-items: center;
      gap: var(--pal-space);
      padding: 6px 10px;
      min-height: 24px;
      border: 1px solid var(--pal-color-border);
      border-radius: var(--pal-radius-small);
      cursor: pointer;
    }
    .choice:has(input:checked) {
      border-color: var(--pal-canvas-accent);
      background: color-mix(in srgb, var(--pal-canvas-accent) 8%, var(--pal-color-surface));
    }
    .choice input {
      accent-color: var(--pal-canvas-accent);
      margin: 0;
    }
    /* Drawn, not native: WebKit's dark radios painted unchecked as a white disc, like a checked one. */
    .choice input:is([type='radio'], [type='checkbox']) {
      appearance: none;
      flex: none;
      width: 18px;
      height: 18px;
      border: 2px solid var(--pal-color-text-muted);
      border-radius: 50%;
      background: var(--pal-color-surface);
      display: grid;
      place-content: center;
      cursor: pointer;
    }
    .choice input[type='checkbox'] {
      border-radius: 4px;
    }
    .choice input:checked {
      border-color: var(--pal-canvas-accent);
    }
    .choice input[type='radio']:checked {
      background: radial-gradient(circle, var(--pal-canvas-accent) 0 4px, var(--pal-color-surface) 4.5px);
    }
    .choice input[type='checkbox']:checked {
      background: var(--pal-canvas-accent);
    }
    .choice input[type='checkbox']:checked::before {
      content: '';
      width: 4px;
      height: 8px;
      margin-top: -2px;
      border: solid var(--pal-color-accent-contrast);
      border-width: 0 2px 2px 0;
      transform: rotate(45deg);
    }
    input.text {
      font: inherit;
      padding: 8px 10px;
      border: 1px solid var(--pal-color-border);
      border-radius: var(--pal-radius-small);
      background: var(--pal-color-surface);
      color: var(--pal-color-text);
    }
    input.text[aria-invalid='true'] {
      border-color: var(--pal-color-danger);
    }
    /* A long card scrolls its body; the actions stay pinned to its bottom edge, never cut off. */
    .actions {
      display: flex;
      justify-content: flex-end;
      gap: var(--pal-space);
      position: sticky;
      bottom: calc(var(--pal-space) * -1.5);
      margin-bottom: calc(var(--pal-space) * -1.5);
      padding-block: var(--pal-space) calc(var(--pal-space) * 1.5);
      background: var(--pal-color-surface);
    }
    .primary,
    .secondary {
      font: inherit;
      border-radius: var(--pal-radius-small);
      padding: 8px 14px;
      cursor: pointer;
    }
    .primary {
      border: 0;
      background: var(--pal-canvas-accent);
      color: var(--pal-color-accent-contrast);
    }
    .secondary {
      border: 1px solid var(--pal-color-border);
      background: var(--pal-color-surface);
      color: var(--pal-color-text);
    }
    .secondary[aria-pressed='true'] {
      border-color: var(--pal-canvas-accent);
    }
    button:disabled {
      opacity: 0.5;
      cursor: default;
    }
    .error {
      color: var(--pal-color-danger);
      margin: 0;
      font-size: 0.9em;
    }
    .hint,
    .description,
    .status {
      color: var(--pal-color-text-muted);
      margin: 0;
      font-size: 0.9em;
    }
    .status {
      margin-top: var(--pal-space);
    }
    .failed {
      margin-top: var(--pal-space);
      padding: var(--pal-space);
      border-radius: var(--pal-radius-small);
      background: color-mix(in srgb, var(--pal-color-danger) 10%, var(--pal-color-surface));
      display: flex;
      align-items: center;
      gap: var(--pal-space);
    }
    .failed p {
      margin: 0;
      flex: 1;
      font-size: 0.9em;
    }
  `,
  cardKindStyles,
];
