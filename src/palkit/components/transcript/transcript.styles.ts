import { css } from 'lit';
import { srOnlyStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';

export const transcriptStyles = [
  tokens,
  srOnlyStyles,
  css`
    :host {
      display: block;
      box-sizing: border-box;
      --pal-transcript-height: 100%;
      --pal-captions-background: rgb(0 0 0 / 0.72);
      --pal-captions-color: #ffffff;
      --pal-captions-font-size: 1.05em;
      --pal-captions-lines: 3;
    }
    :host([hidden]) {
      display: none;
    }
    :host([mode='panel']) {
      display: flex;
      flex-direction: column;
      height: var(--pal-transcript-height);
      min-height: 0;
      background: var(--pal-color-surface);
      position: relative;
    }
    .toolbar {
      display: flex;
      /* One row at 320 px (the downloads are short); a longer custom label wraps rather than leave the edge. */
      flex-wrap: wrap;
      justify-content: flex-end;
      gap: calc(var(--pal-space) / 2);
      padding: calc(var(--pal-space) / 2) var(--pal-space);
      border-bottom: 1px solid var(--pal-color-border);
    }
    button {
      font: inherit;
      cursor: pointer;
    }
    button:focus-visible,
    input:focus-visible,
    .scroller:focus-visible {
      outline: none;
      box-shadow: var(--pal-focus-ring);
    }
    /* What the host puts in the toolbar (the voice/text switch) sits at its start. */
    ::slotted(*) {
      margin-inline-end: auto;
    }
    .toolbar button {
      display: inline-flex;
      align-items: center;
      gap: 3px;
      border: 1px solid var(--pal-color-border);
      border-radius: var(--pal-radius-small);
      background: var(--pal-color-surface);
      color: var(--pal-color-text);
      font-size: 0.8em;
      padding: 3px 8px;
      white-space: nowrap;
    }
    .scroller {
      flex: 1;
      min-height: 0;
      overflow-y: auto;
      overscroll-behavior: contain;
      position: relative;
    }
    ol {
      list-style: none;
      margin: 0;
      padding-inline: 0;
      box-sizing: border-box;
    }
    li {
      /* Row spacing is padding, not margin, so a row's offsetHeight is the whole slot it takes. */
      padding: calc(var(--pal-space) / 2) var(--pal-space);
      display: flex;
      flex-direction: column;
      align-items: flex-start;
    }
    li.user {
      align-items: flex-end;
    }
    li.tool {
      align-items: center;
    }
    li.tool code {
      font-size: 1.1em;
    }
    .meta {
      font-size: 0.75em;
      color: var(--pal-color-text-muted);
      margin-bottom: 2px;
    }
    .speaker {
      font-weight: 600;
      margin-inline-end: 6px;
    }
    .bubble {
      max-width: 85%;
      padding: 6px 10px;
      border-radius: var(--pal-radius-small);
      background: var(--pal-color-surface-raised);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      line-height: 1.4;
    }
    li.user .bubble {
      background: color-mix(in srgb, var(--pal-color-accent) 14%, var(--pal-color-surface));
    }
    li.pending .bubble {
      opacity: 0.7;
    }
    .interrupted {
      color: var(--pal-color-text-muted);
    }
    .empty {
      margin: calc(var(--pal-space) * 2);
      color: var(--pal-color-text-muted);
      text-align: center;
    }
    .jump {
      position: absolute;
      left: 50%;
      transform: translateX(-50%);
      bottom: 64px;
      border: 0;
      border-radius: 999px;
      padding: 6px 14px;
      background: var(--pal-color-accent);
      color: var(--pal-color-accent-contrast);
      box-shadow: var(--pal-shadow);
    }
    :host([hide-chat]) .jump {
      bottom: var(--pal-space);
    }
    form {
      display: flex;
      gap: var(--pal-space);
      padding: var(--pal-space);
      border-top: 1px solid var(--pal-color-border);
    }
    form input {
      flex: 1;
      min-width: 0;
      font: inherit;
      padding: 8px 10px;
      border: 1px solid var(--pal-color-border);
      border-radius: var(--pal-radius-small);
      background: var(--pal-color-surface);
      color: var(--pal-color-text);
    }
    form button {
      border: 0;
      border-radius: var(--pal-radius-small);
      padding: 8px 14px;
      background: var(--pal-color-accent);
      color: var(--pal-color-accent-contrast);
    }
    form button:disabled {
      opacity: 0.5;
      cursor: default;
    }
    :host([mode='captions']) {
      pointer-events: none;
      text-align: center;
    }
    [part='captions'] {
      display: inline-block;
      max-width: min(48em, 100%);
      margin: var(--pal-space);
      padding: 6px 12px;
      border-radius: var(--pal-radius-small);
      background: var(--pal-captions-background);
      color: var(--pal-captions-color);
      font-size: var(--pal-captions-font-size);
      line-height: 1.4;
      text-align: start;
    }
    [part='captions'][hidden] {
      display: none;
    }
    .caption-text {
      /* Bottom-anchored: when the text outgrows the box the oldest words scroll out of view. */
      display: flex;
      flex-direction: column;
      justify-content: flex-end;
      max-height: calc(1.4em * var(--pal-captions-lines));
      overflow: hidden;
      margin: 0;
    }
    [part='captions'] .interrupted {
      color: inherit;
      opacity: 0.8;
    }
  `,
];
