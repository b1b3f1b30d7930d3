// canvas.input: one typed value (text, email, number, tel) with client-side validation.
import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { canvasValueLimits, type InputArgs } from '../../../../protocol/canvas.js';
import type { IncallStringKey } from '../../i18n/strings-incall.js';
import type { CardContext } from './card-context.js';

const checks: Record<NonNullable<InputArgs['input_type']>, (v: string) => boolean> = {
  text: () => true,
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  number: (v) => v !== '' && Number.isFinite(Number(v)),
  tel: (v) => /^\+?[\d\s().-]{5,24}$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 5,
};

/** The error message key for a value, or null when it is acceptable. */
export function inputProblem(args: InputArgs, raw: string): IncallStringKey | null {
  const type = args.input_type ?? 'text';
  const value = raw.trim();
  if (!value) return args.required ? 'canvas.required' : null;
  return checks[type](value) ? null : (`canvas.invalid.${type}` as IncallStringKey);
}

export function renderInput(ctx: CardContext<InputArgs>) {
  const { args, draft } = ctx;
  const type = args.input_type ?? 'text';
  const inputId = `${ctx.idPrefix}-input`;
  const errorId = `${ctx.idPrefix}-error`;
  const value = String(draft.value ?? '');
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const value = String(draft.value ?? '');
    const problem = inputProblem(args, value);
    draft.error = problem ? ctx.t(problem) : '';
    ctx.changed();
    if (problem) return ctx.focus('input');
    const trimmed = value.trim();
    ctx.submit({ value: type === 'number' && trimmed !== '' ? Number(trimmed) : trimmed });
  };
  return html`<form @submit=${onSubmit} novalidate>
    <label class=${ctx.labelInHeading ? 'sr-only' : 'prompt'} for=${inputId}>${args.prompt}</label>
    <input
      id=${inputId}
      class="text"
      type=${type === 'number' ? 'text' : type}
      inputmode=${type === 'number' ? 'decimal' : type === 'tel' ? 'tel' : type === 'email' ? 'email' : 'text'}
      autocomplete=${type === 'email' ? 'email' : type === 'tel' ? 'tel' : 'off'}
      maxlength=${canvasValueLimits.inputValue}
      placeholder=${ifDefined(args.placeholder)}
      ?required=${Boolean(args.required)}
      aria-invalid=${draft.error ? 'true' : 'false'}
      aria-describedby=${draft.error ? errorId : nothing}
      .value=${value}
      ?disabled=${ctx.busy}
      @input=${(e: Event) => (draft.value = (e.target as HTMLInputElement).value)}
    />
    ${draft.error ? html`<p class="error" id=${errorId} role="alert">${draft.error}</p>` : nothing}
    <div class="actions">
      ${args.allow_skip ? html`<button type="button" class="secondary" ?disabled=${ctx.busy} @click=${() => ctx.skip({})}>${ctx.t('canvas.skip')}</button>` : nothing}
      <button type="submit" class="primary" ?disabled=${ctx.busy}>${ctx.t('canvas.submit')}</button>
    </div>
  </form>`;
}
