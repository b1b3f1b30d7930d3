// When the local PAL shows a Magic Canvas card (it has the magic_canvas skill and the visitor asks to
// pick, choose or schedule something) and what it says back when the visitor answers the card.
import type { CanvasSkill } from '../room/live-conversation.js';
import { isRecord } from '../room/live-conversation.js';
import { joinList, palLine } from '../agent/language.js';
import { spokenTime, type VisitorClock } from '../agent/spoken-time.js';

export interface CanvasCard {
  /** The canvas action, e.g. `canvas_show_question`. */
  name: string;
  args: Record<string, unknown>;
  /** What the PAL says while the card appears. */
  line: string;
}

const enabled = (skill: CanvasSkill, component: string) => skill.components[component]?.enabled !== false;
const layout = { layout: { preferred_slot: 'safe-area-right' }, display_mode: 'inline' };

const SCHEDULE = /\b(schedul\w*|book(ing)?|appointment|meeting|calendar|reserve|availability|available (times?|slots?)|time ?slot)\b/i;
const CHOOSE = /\b(pick|choose|choice|select|decide|option|options|which one|prefer)\b/i;

/** The card to show for what the visitor said, or null. */
export function cardFor(text: string, skill: CanvasSkill, now: Date): CanvasCard | null {
  if (SCHEDULE.test(text) && enabled(skill, 'calendar')) {
    return {
      name: 'canvas_show_calendar',
      args: { title: 'Pick a time that suits you', mode: 'slot_picker', multi_select: false, slots: nextSlots(now), ...layout },
      line: "I've put a few times on the screen. Pick the one that suits you.",
    };
  }
  if (CHOOSE.test(text) && enabled(skill, 'question')) {
    const options = optionsIn(text);
    return {
      name: 'canvas_show_question',
      args: {
        question: options ? 'Which one would you like?' : 'What would you like to do next?',
        options: (options ?? ['Tell me more', 'Show me an example', 'Something else']).map((label, i) => ({ id: `opt_${i + 1}`, label })),
        allow_other: true,
        ...layout,
      },
      line: "I've put the options on the screen for you.",
    };
  }
  return null;
}

/** "red or blue", "between tea, coffee and water" → the alternatives (2–10), else null. */
function optionsIn(text: string): string[] | null {
  const tail = text.replace(/[?!.]+$/, '').split(/\b(?:between|among|from|pick|choose|select)\b/i).pop() ?? '';
  const parts = tail
    .split(/,|\bor\b|\band\b/i)
    .map((s) => s.replace(/^\s*(the|a|an)\s+/i, '').trim())
    .filter((s) => s && s.length <= 60);
  const unique = [...new Set(parts)];
  return unique.length >= 2 && unique.length <= 10 ? unique : null;
}

function nextSlots(now: Date): string[] {
  const slots: string[] = [];
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  while (slots.length < 4) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    for (const hour of [10, 14]) slots.push(new Date(day.getTime() + hour * 3600_000).toISOString().replace('.000Z', 'Z'));
  }
  return slots;
}

/** What the PAL says about a recorded interaction on a card it showed (null: nothing to say). */
export function acknowledgement(
  interaction: { type: string; value: Record<string, unknown> },
  shownArgs: Record<string, unknown> | undefined,
  say: { lang: string; clock: VisitorClock } = { lang: 'en', clock: {} },
): string | null {
  const { type, value } = interaction;
  if (type === 'skip') return "No problem, let's skip that.";
  if (type === 'dismiss' || type === 'clear') return 'Okay.';
  if (type !== 'submit') return null;
  if (Array.isArray(value.selected_option_ids)) {
    const options = Array.isArray(shownArgs?.options) ? (shownArgs.options as unknown[]).filter(isRecord) : [];
    const labels = (value.selected_option_ids as unknown[]).map((id) => options.find((o) => o.id === id)?.label ?? id).map(String);
    if (typeof value.other_text === 'string' && value.other_text.trim()) labels.push(value.other_text.trim());
    return labels.length ? `Thanks, you chose ${joinWords(labels)}.` : 'Thanks for your answer.';
  }
  const time = (iso: unknown) => spokenTime(String(iso), say.lang, say.clock);
  if (typeof value.selected_slot === 'string') return palLine(say.lang, 'timeChosen', { time: time(value.selected_slot) });
  if (Array.isArray(value.selected_slots)) return palLine(say.lang, 'timesNoted', { times: joinList(value.selected_slots.map(time), say.lang) });
  if (typeof value.selected_date === 'string') return `Great, ${value.selected_date} it is.`;
  if (isRecord(value.selected_range)) return `Great, from ${String(value.selected_range.start)} to ${String(value.selected_range.end)}.`;
  if ('value' in value) return `Thanks, I've noted ${String(value.value)}.`;
  if (typeof value.event_uri === 'string') return "Your booking is confirmed. Thanks!";
  return 'Thanks for your answer.';
}

function joinWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
