// canvas.calendar: a month grid (date, range) and/or a list of the slots the PAL passed in. Shows only
// what it is given; arrow keys move through the days, Page Up / Page Down through the months.
import { html, nothing } from 'lit';
import type { CalendarArgs, CalendarSlot } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';

type Ctx = CardContext<CalendarArgs>;

const pad = (n: number) => String(n).padStart(2, '0');
export const ymd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const fromYmd = (s: string) => {
  const [y, m, d] = s.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
};
const addDays = (s: string, n: number) => {
  const d = fromYmd(s);
  d.setDate(d.getDate() + n);
  return ymd(d);
};
const slotStart = (s: CalendarSlot) => (typeof s === 'string' ? s : s.start);
const slotDate = (s: CalendarSlot) => ymd(new Date(slotStart(s)));

const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const weekdayShort = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const weekdayLong = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const timeLabel = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const slotLabel = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function describeSlot(slot: CalendarSlot, withDate: boolean): string {
  const fmt = withDate ? slotLabel : timeLabel;
  const start = fmt.format(new Date(slotStart(slot)));
  if (typeof slot === 'string') return start;
  const end = slot.end ? `–${timeLabel.format(new Date(slot.end))}` : '';
  return slot.label ? `${slot.label} (${start}${end})` : `${start}${end}`;
}

function isEnabled(args: CalendarArgs, date: string): boolean {
  const range = args.date_range;
  if (range && (date < range.start || date > range.end)) return false;
  if (args.available_dates && !args.available_dates.includes(date)) return false;
  if (args.mode === 'date_time') return (args.slots ?? []).some((s) => slotDate(s) === date);
  return true;
}

function initialView(args: CalendarArgs): string {
  if (args.initial_year && args.initial_month) return `${args.initial_year}-${pad(args.initial_month)}`;
  const first =
    args.available_dates?.[0] ??
    (args.mode === 'date_time' && args.slots?.[0] ? slotDate(args.slots[0]) : undefined) ??
    args.date_range?.start;
  return (first ?? ymd(new Date())).slice(0, 7);
}

function shiftMonth(view: string, n: number): string {
  const d = fromYmd(`${view}-01`);
  d.setMonth(d.getMonth() + n);
  return ymd(d).slice(0, 7);
}

function renderMonth(ctx: Ctx, onPick: (date: string) => void, isPicked: (date: string) => boolean, inRange: (date: string) => boolean) {
  const { args, draft } = ctx;
  const view = String(draft.view ?? (draft.view = initialView(args)));
  const first = fromYmd(`${view}-01`);
  const offset = (first.getDay() + 6) % 7; // weeks start on Monday
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const dates = Array.from({ length: days }, (_, i) => `${view}-${pad(i + 1)}`);
  const focusable =
    typeof draft.focus === 'string' && draft.focus.startsWith(view)
      ? draft.focus
      : (dates.find((d) => isPicked(d)) ?? dates.find((d) => isEnabled(args, d)));
  const cells: (string | null)[] = [...Array<null>(offset).fill(null), ...dates];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const monday = new Date(2024, 0, 1);
  const headers = Array.from({ length: 7 }, (_, i) => new Date(monday.getFullYear(), 0, 1 + i));
  const headingId = `${ctx.idPrefix}-month`;
  const go = (n: number) => {
    draft.view = shiftMonth(view, n);
    draft.focus = undefined;
    ctx.changed();
  };
  const onKey = (e: KeyboardEvent) => {
    const from = (e.target as HTMLElement).dataset.date;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
    const monthStep = e.key === 'PageUp' ? -1 : e.key === 'PageDown' ? 1 : 0;
    if (!from || (!step && !monthStep)) return;
    e.preventDefault();
    let next = from;
    if (monthStep) next = `${shiftMonth(from.slice(0, 7), monthStep)}-01`;
    else for (let i = 0; i < 62; i++) if (isEnabled(args, (next = addDays(next, step!)))) break;
    if (!isEnabled(args, next)) return;
    draft.view = next.slice(0, 7);
    draft.focus = next;
    ctx.changed();
    ctx.focus(`button[data-date="${next}"]`);
  };
  return html`<div class="month">
    <div class="month-nav">
      <button type="button" class="icon" aria-label=${ctx.t('canvas.prevMonth')} @click=${() => go(-1)}>‹</button>
      <span id=${headingId} class="month-title" aria-live="polite">${monthLabel.format(first)}</span>
      <button type="button" class="icon" aria-label=${ctx.t('canvas.nextMonth')} @click=${() => go(1)}>›</button>
    </div>
    <table class="grid" aria-labelledby=${headingId} @keydown=${onKey}>
      <thead><tr>${headers.map((d) => html`<th scope="col" abbr=${weekdayLong.format(d)}>${weekdayShort.format(d)}</th>`)}</tr></thead>
      <tbody>
        ${weeks.map(
          (week) =>
            html`<tr>${week.map(
              (date) =>
                html`<td>${
                  date
                    ? html`<button type="button" data-date=${date} class=${inRange(date) ? 'in-range' : ''}
              tabindex=${date === focusable ? 0 : -1} aria-label=${dayLabel.format(fromYmd(date))}
              aria-pressed=${isPicked(date) ? 'true' : 'false'} ?disabled=${!isEnabled(args, date) || ctx.busy}
              @click=${() => {
                draft.focus = date;
                onPick(date);
              }}>${Number(date.slice(8))}</button>`
                    : nothing
                }</td>`,
            )}</tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function renderSlots(ctx: Ctx, slots: readonly CalendarSlot[], withDate: boolean) {
  const { args, draft } = ctx;
  const picked = Array.isArray(draft.slots) ? (draft.slots as string[]) : [];
  const multi = Boolean(args.multi_select);
  if (!slots.length) return html`<p class="hint">${ctx.t('canvas.noSlots')}</p>`;
  const toggle = (start: string, on: boolean) => {
    const picked = Array.isArray(draft.slots) ? (draft.slots as string[]) : [];
    draft.slots = multi ? [...picked.filter((s) => s !== start), ...(on ? [start] : [])] : on ? [start] : [];
    draft.error = '';
    ctx.changed();
  };
  // Alone on the card (slot_picker) the list is what the card's heading names; under a month grid it needs its own.
  return html`<fieldset class="slots">
    <legend class=${withDate ? 'sr-only' : 'prompt'}>${ctx.t('canvas.chooseSlot')}</legend>
    ${slots.map((slot) => {
      const start = slotStart(slot);
      return html`<label class="choice"><input type=${multi ? 'checkbox' : 'radio'} name=${`${ctx.idPrefix}-slot`} .value=${start}
        .checked=${picked.includes(start)} ?disabled=${ctx.busy} @change=${(e: Event) => toggle(start, (e.target as HTMLInputElement).checked)} />
        <span>${describeSlot(slot, withDate)}</span></label>`;
    })}
  </fieldset>`;
}

/** The submit value for the current draft, or the message key of what is still missing. */
function valueOf(args: CalendarArgs, draft: Record<string, unknown>): Record<string, unknown> | 'canvas.chooseDate' | 'canvas.chooseSlot' {
  const mode = args.mode ?? 'date_picker';
  if (mode === 'date_picker') return typeof draft.date === 'string' ? { selected_date: draft.date } : 'canvas.chooseDate';
  if (mode === 'range') {
    return typeof draft.start === 'string' && typeof draft.end === 'string'
      ? { selected_range: { start: draft.start, end: draft.end } }
      : 'canvas.chooseDate';
  }
  const slots = Array.isArray(draft.slots) ? (draft.slots as string[]) : [];
  if (!slots.length) return 'canvas.chooseSlot';
  return args.multi_select ? { selected_slots: slots } : { selected_slot: slots[0] };
}

export function renderCalendar(ctx: Ctx) {
  const { args, draft } = ctx;
  const mode = args.mode ?? 'date_picker';
  const errorId = `${ctx.idPrefix}-error`;
  const pickDate = (date: string) => {
    if (mode === 'range') {
      if (typeof draft.start !== 'string' || typeof draft.end === 'string') [draft.start, draft.end] = [date, undefined];
      else if (date < draft.start) [draft.start, draft.end] = [date, draft.start];
      else draft.end = date;
    } else {
      if (mode === 'date_time' && draft.date !== date) draft.slots = [];
      draft.date = date;
    }
    draft.error = '';
    ctx.changed();
  };
  const picked = (d: string) => (mode === 'range' ? d === draft.start || d === draft.end : d === draft.date);
  const between = (d: string) =>
    mode === 'range' && typeof draft.start === 'string' && typeof draft.end === 'string' && d > draft.start && d < draft.end;
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const value = valueOf(args, draft);
    draft.error = typeof value === 'string' ? ctx.t(value) : '';
    ctx.changed();
    if (typeof value !== 'string') ctx.submit(value);
  };
  const daySlots = (args.slots ?? []).filter((s) => slotDate(s) === draft.date);
  return html`<form @submit=${onSubmit} novalidate>
    ${args.description ? html`<p class="description">${args.description}</p>` : nothing}
    ${mode === 'range' ? html`<p class="hint">${ctx.t('canvas.rangeHint')}</p>` : nothing}
    ${
      mode === 'date_picker' && args.presets?.length
        ? html`<div class="presets">${args.presets.map(
            (p) => html`<button type="button" class="secondary" aria-pressed=${draft.date === p.date ? 'true' : 'false'}
          ?disabled=${ctx.busy} @click=${() => {
            draft.view = p.date.slice(0, 7);
            pickDate(p.date);
          }}>${p.label}</button>`,
          )}</div>`
        : nothing
    }
    ${mode === 'slot_picker' ? renderSlots(ctx, args.slots ?? [], true) : renderMonth(ctx, pickDate, picked, between)}
    ${mode === 'date_time' && typeof draft.date === 'string' ? renderSlots(ctx, daySlots, false) : nothing}
    ${draft.error ? html`<p class="error" id=${errorId} role="alert">${draft.error}</p>` : nothing}
    <div class="actions"><button type="submit" class="primary" ?disabled=${ctx.busy}>${ctx.t('canvas.submit')}</button></div>
  </form>`;
}
