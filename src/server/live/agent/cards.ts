// When the local PAL shows a Magic Canvas card (it has the magic_canvas skill and the visitor asks to
// pick, choose or schedule something) and what it says back when the visitor answers the card — all
// in the reply language, from the PAL's card lines (resources/pals/lines/pal-card-lines.ts).
import type { CanvasSkill } from '../../resources/conversations/live-conversation.js';
import { isRecord } from '../../resources/conversations/live-conversation.js';
import { cardLine, joinList, palLine } from '../../resources/pals/lines/language.js';
import { spokenDate, spokenTime, type VisitorClock } from '../../resources/pals/lines/spoken-time.js';

export interface CanvasCard {
  /** The canvas action, e.g. `canvas_show_question`. */
  name: string;
  args: Record<string, unknown>;
  /** What the PAL says while the card appears. */
  line: string;
}

const enabled = (skill: CanvasSkill, component: string) => skill.components[component]?.enabled !== false;
const layout = { layout: { preferred_slot: 'safe-area-right' }, display_mode: 'inline' };

// Words that ask for a time or a choice, by language (en de fr es it pt nl, sv da nb fi pl cs ru uk tr);
// `\p{L}*` ends a stem. A whole word: no letter on either side (\b knows only ASCII letters).
const words = (list: string) => new RegExp(`(?<!\\p{L})(?:${list})(?!\\p{L})`, 'iu');
const SCHEDULE = words(
  [
    'schedul\\p{L}*',
    'book(?:ing)?',
    'appointment',
    'meeting',
    'calendar',
    'reserve',
    'availability',
    'available (?:times?|slots?)',
    'time ?slots?',
    'termin\\p{L}*',
    'buchen',
    'buchung\\p{L}*',
    'vereinbar\\p{L}*',
    'kalender',
    'reservier\\p{L}*',
    'rendez-vous',
    'réserv\\p{L}*',
    'calendrier',
    'créneaux?',
    'cita',
    'reserv\\p{L}*',
    'agendar',
    'calendario',
    'appuntament\\p{L}*',
    'prenot\\p{L}*',
    'marcar',
    'afspraak',
    'boeken',
    'agenda',
    'boka',
    'bokning\\p{L}*',
    'booke',
    'bestille time',
    'aftale',
    'avtale',
    'varat\\p{L}*',
    'varau\\p{L}*',
    'tapaami\\p{L}*',
    'umówić',
    'rezerw\\p{L}*',
    'spotkani\\p{L}*',
    'objedn\\p{L}*',
    'schůzk\\p{L}*',
    'termín\\p{L}*',
    'записаться',
    'запис\\p{L}*',
    'заброн\\p{L}*',
    'встреч\\p{L}*',
    'зустріч\\p{L}*',
    'randevu\\p{L}*',
    'rezervasyon\\p{L}*',
  ].join('|'),
);
const CHOOSE = words(
  [
    'pick',
    'choose',
    'choice',
    'select',
    'decide',
    'options?',
    'which one',
    'prefer',
    'wählen',
    'auswählen',
    'auswahl',
    'entscheid\\p{L}*',
    'optionen',
    'choisir',
    'choix',
    'opción',
    'opciones',
    'elegir',
    'escoger',
    'scegliere',
    'scelta',
    'opzion\\p{L}*',
    'escolher',
    'escolha',
    'opções',
    'opção',
    'kiezen',
    'keuze',
    'opties?',
    'välja',
    'alternativ\\p{L}*',
    'vælge',
    'valg',
    'muligheder',
    'velge',
    'valita',
    'valinta',
    'vaihtoeh\\p{L}*',
    'wybrać',
    'wybór',
    'opcj\\p{L}*',
    'vybrat',
    'výběr',
    'možnosti',
    'выбрать',
    'выбор',
    'вариант\\p{L}*',
    'вибрати',
    'обрати',
    'вибір',
    'варіант\\p{L}*',
    'seçmek',
    'seçim',
    'seçene\\p{L}*',
    'hangisi',
  ].join('|'),
);
// Languages written without spaces between words.
const SCHEDULE_CJK = /予約|予定|预约|预订|安排时间|예약|일정/u;
const CHOOSE_CJK = /選択|選ぶ|どれ|选择|选项|哪个|선택|옵션|어느 것/u;

/** The card to show for what the visitor said, or null; its line and texts in `lang`. */
export function cardFor(text: string, skill: CanvasSkill, now: Date, lang = 'en'): CanvasCard | null {
  if ((SCHEDULE.test(text) || SCHEDULE_CJK.test(text)) && enabled(skill, 'calendar')) {
    return {
      name: 'canvas_show_calendar',
      args: { title: cardLine(lang, 'timesTitle'), mode: 'slot_picker', multi_select: false, slots: nextSlots(now), ...layout },
      line: cardLine(lang, 'timesLine'),
    };
  }
  if ((CHOOSE.test(text) || CHOOSE_CJK.test(text)) && enabled(skill, 'question')) {
    const options = optionsIn(text, lang);
    return {
      name: 'canvas_show_question',
      args: {
        question: cardLine(lang, options ? 'whichOne' : 'whatNext'),
        options: (options ?? [cardLine(lang, 'tellMore'), cardLine(lang, 'example'), cardLine(lang, 'somethingElse')]).map((label, i) => ({
          id: `opt_${i + 1}`,
          label,
        })),
        allow_other: true,
        ...layout,
      },
      line: cardLine(lang, 'optionsLine'),
    };
  }
  return null;
}

// "between", "or" and "and" by language: "red or blue", "zwischen Tee und Kaffee".
const BETWEEN =
  /(?<!\p{L})(?:between|among|from|pick|choose|select|zwischen|entre|tra|fra|tussen|mellan|mellem|między|mezi|между|між|arasında)(?!\p{L})/iu;
const CONJUNCTIONS: Record<string, string> = {
  en: 'or|and',
  de: 'oder|und',
  fr: 'ou|et',
  es: 'o|u|y',
  it: 'o|oppure|e',
  pt: 'ou|e',
  nl: 'of|en',
  sv: 'eller|och',
  da: 'eller|og',
  nb: 'eller|og',
  no: 'eller|og',
  fi: 'tai|vai|ja',
  pl: 'czy|albo|lub|i',
  cs: 'nebo|či|a',
  ru: 'или|и',
  uk: 'або|чи|і|й',
  tr: 'veya|yoksa|ya da|ve',
};
const ARTICLE = /^\s*(?:the|a|an|der|die|das|den|le|la|les|l’|el|los|las|il|lo|gli|o|os|as|de|het)\s+/iu;

/** "red or blue", "between tea, coffee and water" → the alternatives (2–10), else null. */
function optionsIn(text: string, lang: string): string[] | null {
  const own = CONJUNCTIONS[lang.split('-')[0]!.toLowerCase()];
  const conjunctions = own && own !== CONJUNCTIONS.en ? `${own}|${CONJUNCTIONS.en}` : CONJUNCTIONS.en!;
  const tail =
    text
      .replace(/[?!.？！。]+$/u, '')
      .split(BETWEEN)
      .pop() ?? '';
  const parts = tail
    .split(new RegExp(`,|\\s(?:${conjunctions})\\s`, 'iu'))
    .map((s) => s.replace(ARTICLE, '').trim())
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

/** What the PAL says about a recorded interaction on a card it showed (null: nothing to say), in `say.lang`. */
export function acknowledgement(
  interaction: { type: string; value: Record<string, unknown> },
  shownArgs: Record<string, unknown> | undefined,
  say: { lang: string; clock: VisitorClock } = { lang: 'en', clock: {} },
): string | null {
  const { type, value } = interaction;
  const { lang } = say;
  if (type === 'skip') return cardLine(lang, 'skipped');
  if (type === 'dismiss' || type === 'clear') return cardLine(lang, 'okay');
  if (type !== 'submit') return null;
  if (Array.isArray(value.selected_option_ids)) {
    const options = Array.isArray(shownArgs?.options) ? (shownArgs.options as unknown[]).filter(isRecord) : [];
    const labels = (value.selected_option_ids as unknown[]).map((id) => options.find((o) => o.id === id)?.label ?? id).map(String);
    if (typeof value.other_text === 'string' && value.other_text.trim()) labels.push(value.other_text.trim());
    return labels.length ? cardLine(lang, 'chose', { choice: joinList(labels, lang) }) : cardLine(lang, 'answered');
  }
  const time = (iso: unknown) => spokenTime(String(iso), lang, say.clock);
  const date = (iso: unknown) => spokenDate(String(iso), lang, say.clock);
  if (typeof value.selected_slot === 'string') return palLine(lang, 'timeChosen', { time: time(value.selected_slot) });
  if (Array.isArray(value.selected_slots)) return palLine(lang, 'timesNoted', { times: joinList(value.selected_slots.map(time), lang) });
  if (typeof value.selected_date === 'string') return cardLine(lang, 'dateChosen', { date: date(value.selected_date) });
  if (isRecord(value.selected_range))
    return cardLine(lang, 'rangeChosen', { start: date(value.selected_range.start), end: date(value.selected_range.end) });
  if ('value' in value) return cardLine(lang, 'noted', { value: String(value.value) });
  if (typeof value.event_uri === 'string') return cardLine(lang, 'booked');
  return cardLine(lang, 'answered');
}
