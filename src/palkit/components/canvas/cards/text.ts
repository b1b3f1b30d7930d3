// canvas.text: read-only text, plain or safe Markdown.
import { html } from 'lit';
import type { TextArgs } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';
import { renderMarkdown } from './markdown.js';

export function renderText(ctx: CardContext<TextArgs>) {
  const { body, format } = ctx.args;
  return format === 'markdown' ? html`<div class="prose">${renderMarkdown(body)}</div>` : html`<p class="plain">${body}</p>`;
}
