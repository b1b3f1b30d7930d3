// canvas.alert: a notice with a severity; always dismissible (the close button of the card frame),
// optionally dismissed by itself after `auto_dismiss_seconds` (paused while pointed at or focused).
import { html, nothing } from 'lit';
import type { AlertArgs } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';

const icons = { info: 'i', success: '✓', warning: '!', error: '×' } as const;

export function renderAlert(ctx: CardContext<AlertArgs>) {
  const severity = ctx.args.severity ?? 'info';
  return html`<div class="alert ${severity}">
    <span class="severity-icon" aria-hidden="true">${icons[severity]}</span>
    <p>${ctx.labelInHeading ? nothing : html`<span class="sr-only">${ctx.t(`canvas.severity.${severity}`)}: </span>`}${ctx.args.body}</p>
  </div>`;
}
