// What a Magic Canvas interaction's `value` may hold, per component and type (the hosted product
// validates it the same way). Returns a reason when it is wrong, null when it is fine.
import { isRecord } from '../room/live-conversation.js';

const COMPONENTS = ['question', 'input', 'calendar', 'scheduling_embed', 'text', 'chart', 'alert'] as const;
/** Read-only cards only produce lifecycle interactions. */
const DISMISS_ONLY = new Set(['text', 'chart', 'alert']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_VALUE_BYTES = 16 * 1024;

const isString = (v: unknown, max = 2048): v is string => typeof v === 'string' && v.length <= max;
const isIsoTime = (v: unknown) => isString(v, 64) && !Number.isNaN(Date.parse(v));

export function canvasValueProblem(component: string, version: string, type: string, value: Record<string, unknown>): string | null {
  const name = component.startsWith('canvas.') ? component.slice(7) : '';
  if (!(COMPONENTS as readonly string[]).includes(name)) return `component: unknown component ${component}`;
  if (version !== 'v1') return `component_version: ${component} has only version v1`;
  if (JSON.stringify(value).length > MAX_VALUE_BYTES) return `value: larger than ${MAX_VALUE_BYTES} bytes`;
  if (DISMISS_ONLY.has(name) && (type === 'submit' || type === 'skip')) return `type: ${component} only accepts dismiss, clear, error and heartbeat`;
  if (type !== 'submit') return null;
  switch (name) {
    case 'question': {
      const ids = value.selected_option_ids;
      if (!Array.isArray(ids) || !ids.every((id) => isString(id, 128) && id.length > 0)) return 'value.selected_option_ids: expected an array of option ids';
      if (value.other_text !== undefined && !isString(value.other_text, 1000)) return 'value.other_text: expected a string of at most 1000 characters';
      if (ids.length === 0 && !(typeof value.other_text === 'string' && value.other_text.trim())) return 'value.selected_option_ids: choose at least one option or give other_text';
      if (value.skipped !== undefined && value.skipped !== false) return 'value.skipped: must be false on submit (use type skip)';
      return null;
    }
    case 'input': {
      const v = value.value;
      if (!(isString(v, 4000) || (typeof v === 'number' && Number.isFinite(v)))) return 'value.value: expected a string or a number';
      return null;
    }
    case 'calendar': {
      const given = ['selected_date', 'selected_slot', 'selected_slots', 'selected_range'].filter((k) => value[k] !== undefined);
      if (given.length !== 1) return 'value: expected exactly one of selected_date, selected_slot, selected_slots, selected_range';
      if (value.selected_date !== undefined && !(isString(value.selected_date, 10) && DATE.test(value.selected_date))) return 'value.selected_date: expected YYYY-MM-DD';
      if (value.selected_slot !== undefined && !isIsoTime(value.selected_slot)) return 'value.selected_slot: expected an ISO-8601 time';
      if (value.selected_slots !== undefined && !(Array.isArray(value.selected_slots) && value.selected_slots.length > 0 && value.selected_slots.every(isIsoTime))) {
        return 'value.selected_slots: expected a non-empty array of ISO-8601 times';
      }
      const range = value.selected_range;
      if (range !== undefined && !(isRecord(range) && isString(range.start, 64) && isString(range.end, 64) && range.start <= range.end)) {
        return 'value.selected_range: expected {start, end} with start not after end';
      }
      return null;
    }
    case 'scheduling_embed':
      for (const key of ['event_uri', 'invitee_uri']) if (value[key] !== undefined && !isString(value[key])) return `value.${key}: expected a string`;
      return null;
    default:
      return null;
  }
}
