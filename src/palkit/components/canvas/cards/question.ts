// canvas.question: one or several options (native radios / checkboxes), optional free-text "Other".
import { html, nothing } from 'lit';
import { canvasValueLimits, type QuestionArgs } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';

const otherId = '__other__';

function selection(ctx: CardContext<QuestionArgs>): string[] {
  return Array.isArray(ctx.draft.selected) ? (ctx.draft.selected as string[]) : [];
}

/** Drop selections whose options an update removed. */
export function reconcileQuestionDraft(ctx: Pick<CardContext<QuestionArgs>, 'args' | 'draft'>): void {
  const ids = new Set(ctx.args.options.map((o) => o.id));
  if (ctx.args.allow_other) ids.add(otherId);
  if (Array.isArray(ctx.draft.selected)) ctx.draft.selected = (ctx.draft.selected as string[]).filter((id) => ids.has(id));
}

export function renderQuestion(ctx: CardContext<QuestionArgs>) {
  const { args, draft } = ctx;
  const multi = Boolean(args.multi_select);
  const selected = selection(ctx);
  const errorId = `${ctx.idPrefix}-error`;
  // Handlers read the draft when they run: several changes can happen between two renders.
  const toggle = (id: string, on: boolean) => {
    const next = multi ? selection(ctx).filter((s) => s !== id) : [];
    if (on) next.push(id);
    draft.selected = next;
    draft.error = '';
    ctx.changed();
  };
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const selected = selection(ctx);
    const other = selected.includes(otherId) ? String(draft.otherText ?? '').trim() : '';
    if (selected.length === 0) draft.error = ctx.t('canvas.chooseOption');
    else if (selected.includes(otherId) && !other) draft.error = ctx.t('canvas.required');
    else draft.error = '';
    ctx.changed();
    if (draft.error) return ctx.focus(selected.includes(otherId) ? 'input[type="text"]' : 'input');
    ctx.submit({
      selected_option_ids: selected.filter((id) => id !== otherId),
      ...(other ? { other_text: other.slice(0, canvasValueLimits.otherText) } : {}),
      skipped: false,
    });
  };
  const kind = multi ? 'checkbox' : 'radio';
  const option = (id: string, label: string) => html`<label class="choice">
    <input type=${kind} name=${`${ctx.idPrefix}-q`} .value=${id} .checked=${selected.includes(id)} ?disabled=${ctx.busy}
      @change=${(e: Event) => toggle(id, (e.target as HTMLInputElement).checked)} />
    <span>${label}</span>
  </label>`;
  return html`<form @submit=${onSubmit} novalidate>
    <fieldset aria-describedby=${draft.error ? errorId : nothing}>
      <legend class=${ctx.labelInHeading ? 'sr-only' : 'prompt'}>${args.question}</legend>
      ${args.options.map((o) => option(o.id, o.label))}
      ${args.allow_other ? option(otherId, args.other_label ?? ctx.t('canvas.other')) : nothing}
      ${
        args.allow_other && selected.includes(otherId)
          ? html`<input class="text other" type="text" maxlength=${canvasValueLimits.otherText} aria-label=${args.other_label ?? ctx.t('canvas.other')}
            placeholder=${ctx.t('canvas.otherPlaceholder')} .value=${String(draft.otherText ?? '')} ?disabled=${ctx.busy}
            @input=${(e: Event) => (draft.otherText = (e.target as HTMLInputElement).value)} />`
          : nothing
      }
    </fieldset>
    ${draft.error ? html`<p class="error" id=${errorId} role="alert">${draft.error}</p>` : nothing}
    <div class="actions">
      ${args.allow_skip ? html`<button type="button" class="secondary" ?disabled=${ctx.busy} @click=${() => ctx.skip({ skipped: true })}>${ctx.t('canvas.skip')}</button>` : nothing}
      <button type="submit" class="primary" ?disabled=${ctx.busy}>${ctx.t('canvas.submit')}</button>
    </div>
  </form>`;
}
