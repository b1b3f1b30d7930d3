// The bodies of the card kinds that draw more than a prompt and controls: the calendar's month grid, the
// scheduling page, text cards' prose, the chart, the alert's severity. Part of pal-canvas's styles (its
// shadow root), after the card's own.
import { css } from 'lit';

export const cardKindStyles = css`
    .presets {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--pal-space) / 2);
    }
    .month-nav {
      display: flex;
      align-items: center;
      justify-content: space-between;
    }
    .month-title {
      font-weight: 600;
    }
    table.grid {
      border-collapse: collapse;
      width: 100%;
      table-layout: fixed;
    }
    table.grid th {
      font-size: 0.75em;
      font-weight: 500;
      color: var(--pal-color-text-muted);
      padding: 2px 0;
    }
    table.grid td {
      padding: 1px;
      text-align: center;
    }
    table.grid button {
      width: 100%;
      aspect-ratio: 1;
      max-height: 38px;
      border: 0;
      border-radius: var(--pal-radius-small);
      background: transparent;
      color: var(--pal-color-text);
      font: inherit;
      cursor: pointer;
    }
    table.grid button:hover:not(:disabled) {
      background: var(--pal-color-surface-raised);
    }
    table.grid button.in-range {
      background: color-mix(in srgb, var(--pal-canvas-accent) 15%, var(--pal-color-surface));
    }
    table.grid button[aria-pressed='true'] {
      background: var(--pal-canvas-accent);
      color: var(--pal-color-accent-contrast);
    }
    table.grid button:disabled {
      color: var(--pal-color-text-muted);
      opacity: 0.45;
    }
    iframe.scheduling {
      width: 100%;
      height: min(560px, 60cqh);
      min-height: 320px;
      border: 0;
      border-radius: var(--pal-radius-small);
      background: var(--pal-color-surface-raised);
    }
    .card-scheduling_embed {
      --pal-canvas-card-width: 420px;
    }
    .plain {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      margin: 0;
      line-height: 1.5;
    }
    .prose {
      line-height: 1.5;
      overflow-wrap: anywhere;
    }
    .prose > :first-child {
      margin-top: 0;
    }
    .prose > :last-child {
      margin-bottom: 0;
    }
    .prose h3,
    .prose h4 {
      font-size: 1em;
      margin: 0.8em 0 0.3em;
    }
    .prose pre {
      background: var(--pal-color-surface-raised);
      padding: var(--pal-space);
      border-radius: var(--pal-radius-small);
      overflow: auto;
    }
    .prose code {
      font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      font-size: 0.9em;
    }
    .prose a {
      color: var(--pal-canvas-accent);
    }
    .prose blockquote {
      margin: 0.5em 0;
      padding-left: var(--pal-space);
      border-left: 3px solid var(--pal-color-border);
      color: var(--pal-color-text-muted);
    }
    .chart svg {
      width: 100%;
      height: auto;
      display: block;
    }
    .chart.pie {
      display: flex;
      gap: var(--pal-space);
      align-items: center;
    }
    .chart.pie svg {
      width: 45%;
      flex: none;
    }
    .legend {
      list-style: none;
      margin: 0;
      padding: 0;
      font-size: 0.85em;
      display: flex;
      flex-direction: column;
      gap: 4px;
    }
    .swatch {
      display: inline-block;
      width: 10px;
      height: 10px;
      border-radius: 2px;
      margin-inline-end: 6px;
    }
    .muted {
      color: var(--pal-color-text-muted);
    }
    .gridline {
      stroke: var(--pal-color-border);
    }
    .plot .line {
      stroke-width: 2;
      stroke-linecap: round;
    }
    /* Bar and line charts: HTML labels around a plot stretched to the card's width (chart.ts). */
    .plot {
      display: grid;
      grid-template-columns: auto auto minmax(0, 1fr);
      grid-template-rows: 140px auto auto;
      column-gap: 4px;
      margin-block: 8px 0;
    }
    .plot svg {
      grid-area: 1 / 3;
      width: 100%;
      height: 100%;
      overflow: visible;
    }
    .tick,
    .axis-label {
      color: var(--pal-color-text-muted);
      font-size: 12px;
      line-height: 1.3;
      white-space: nowrap;
    }
    .y-label {
      grid-area: 1 / 1;
      align-self: center;
      max-height: 100%;
      writing-mode: vertical-rl;
      transform: rotate(180deg);
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .y-ticks {
      grid-area: 1 / 2;
      position: relative;
    }
    .y-ticks .tick {
      position: absolute;
      right: 0;
      transform: translateY(-50%);
    }
    /* Gives the column the widest tick's width; not painted. */
    .y-ticks .widest {
      position: static;
      display: block;
      height: 0;
      transform: none;
      visibility: hidden;
    }
    .x-ticks {
      grid-area: 2 / 3;
      display: grid;
      grid-template-columns: repeat(var(--pal-chart-bands), minmax(0, 1fr));
      padding-top: 4px;
    }
    .x-ticks .tick,
    .x-label {
      text-align: center;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .x-label {
      grid-area: 3 / 3;
    }
    .alert {
      display: flex;
      gap: var(--pal-space);
      align-items: flex-start;
    }
    .alert p {
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .severity-icon {
      flex: none;
      width: 22px;
      height: 22px;
      border-radius: 50%;
      display: grid;
      place-items: center;
      font-weight: 700;
      font-size: 13px;
      color: #fff;
      background: var(--pal-severity);
    }
    .card.severity-info {
      --pal-severity: var(--pal-canvas-accent);
    }
    .card.severity-success {
      --pal-severity: var(--pal-color-success);
      border-top-color: var(--pal-color-success);
    }
    .card.severity-warning {
      --pal-severity: var(--pal-color-warning);
      border-top-color: var(--pal-color-warning);
    }
    .card.severity-error {
      --pal-severity: var(--pal-color-danger);
      border-top-color: var(--pal-color-danger);
    }
`;
