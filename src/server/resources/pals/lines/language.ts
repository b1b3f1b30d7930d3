// Which language the local PAL listens and replies in: the PAL's `languages`, or the conversation's own
// `properties.languages` (it replaces the PAL's, it is not merged); the first listed is the default, and
// a visitor writing in another listed language gets replies in that one. Also the PAL's own lines
// (greeting, fallbacks, refusal, disclosure …) in each language it can speak. Small talk: small-talk.ts.
import type { LiveConversation } from '../../conversations/live-conversation.js';
import { LINES, type PalLines } from './pal-lines.js';
import { CARD_LINES, type CardLines } from './pal-card-lines.js';
import { ANSWER_LINES, type AnswerLines } from './answer-lines.js';

export type { PalLines } from './pal-lines.js';
export type { CardLines } from './pal-card-lines.js';

/** A primary BCP-47 subtag ('de' for 'de-CH'), lower-cased; '' when the value is not a tag. */
export function primaryLanguage(tag: string): string {
  const m = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{2,8})*\s*$/.exec(tag);
  return m ? m[1]!.toLowerCase() : '';
}

const tags = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * The conversation's languages as primary tags, default first: its `properties.languages` when it lists
 * any (an override, not merged), else the PAL's `languages`, else English.
 */
export function conversationLanguages(conv: Pick<LiveConversation, 'properties' | 'pal'>): string[] {
  const own = tags(conv.properties.languages).map(primaryLanguage).filter(Boolean);
  const list = own.length ? own : tags(conv.pal.definition.languages).map(primaryLanguage).filter(Boolean);
  return list.length ? [...new Set(list)] : ['en'];
}

/**
 * The language the owner fixed for this conversation (its own, else its PAL's), or undefined when neither
 * names one: then the visitor's speech is recognised in whatever language they speak (issue 54), not as English.
 */
export function fixedLanguage(conv: Pick<LiveConversation, 'properties' | 'pal'>): string | undefined {
  const own = tags(conv.properties.languages).map(primaryLanguage).filter(Boolean);
  return own[0] ?? tags(conv.pal.definition.languages).map(primaryLanguage).filter(Boolean)[0];
}

/**
 * The tag the voice speaks `lang` with: the conversation's own tag for it when that names a region or
 * script (`pt-BR`, `en-GB`: the engine picks that region's voice where it has one), else `lang` itself.
 */
export function voiceTag(conv: Pick<LiveConversation, 'properties' | 'pal'>, lang: string): string {
  const own = tags(conv.properties.languages);
  const listed = own.length ? own : tags(conv.pal.definition.languages);
  return listed.find((tag) => primaryLanguage(tag) === primaryLanguage(lang)) ?? lang;
}

/**
 * The language to reply in: the listed language the visitor's words are in when they are clearly in
 * one (a stop-word count), otherwise the conversation's default (its first language).
 */
export function replyLanguage(conv: Pick<LiveConversation, 'properties' | 'pal'>, userText?: string): string {
  const languages = conversationLanguages(conv);
  const fallback = languages[0]!;
  if (!userText) return fallback;
  // Where the owner named no language, the PAL replies in whichever of its languages the visitor writes in.
  if (!languagesFixed(conv)) return detectLanguage(userText, spokenLanguages) ?? fallback;
  if (languages.length < 2) return fallback;
  return detectLanguage(userText, languages) ?? fallback;
}

/** Whether the owner (or the conversation) named the languages: then replies keep to them. */
export function languagesFixed(conv: Pick<LiveConversation, 'properties' | 'pal'>): boolean {
  return [conv.properties.languages, conv.pal.definition.languages].some((v) => tags(v).some((t) => primaryLanguage(t)));
}

// Short, frequent words that tell languages apart (question words, articles, pronouns, greetings).
const MARKERS: Record<string, string> = {
  en: 'the a an is are was do does did how what when where why who which can could would you your i my me it this that of to and or with for have has hello hi thanks thank please yes no long much many',
  de: 'der die das ein eine ist sind war wie was wann wo warum wer welche welcher kann können könnte sie ihr ich mein mich es dies und oder mit für habe hat hallo danke bitte ja nein lange viel viele nicht auch gibt ihre ihnen bei zu auf',
  fr: 'le la les un une est sont était comment quoi quand où pourquoi qui quel quelle quels quelles peut pouvez vous votre vos je mon moi ce et ou avec pour avez bonjour salut merci oui non combien pas des du au il elle sera fera puis-je est-ce',
  es: 'el la los las un una es son era cómo como qué que cuándo dónde por quién cuál puede puedo usted su yo mi me esto y o con para tiene hola gracias sí no cuánto cuanto tarda del al',
  it: 'il lo la gli le un una è sono era come cosa quando dove perché chi quale può posso lei suo io mio mi questo e o con per ha ciao grazie sì no quanto quanti del della non',
  pt: 'o a os as um uma é são era como que quando onde por quem qual pode posso você seu eu meu me isto e ou com para tem olá obrigado obrigada sim não quanto quantos do da não',
  nl: 'de het een is zijn was hoe wat wanneer waar waarom wie welke kan kunt kunnen u jij je uw ik mijn mij dit dat en of met voor heeft hallo hoi bedankt dank alstublieft ja nee lang veel niet',
  ja: '',
  sv: 'och är hur vad när var varför vem vilken kan du ni jag min mig det den en ett att med för har hej tack ja nej inte också finns',
  da: 'og er hvordan hvad hvornår hvor hvorfor hvem hvilken kan du jeg min mig det den en et at med for har hej tak ja nej ikke også findes',
  nb: 'og er hvordan hva når hvor hvorfor hvem hvilken kan du dere jeg min meg det den en et å med for har hei takk ja nei ikke også finnes',
  fi: 'ja on ovat miten mitä milloin missä miksi kuka mikä voi voitteko sinä te minä minun se tämä kanssa hei kiitos kyllä ei myös onko paljonko',
  pl: 'i jest są jak co kiedy gdzie dlaczego kto który może pan pani ja mój to ten z dla ma cześć dziękuję tak nie też czy ile',
  cs: 'a je jsou jak co kdy kde proč kdo který může vy já můj to ten s pro má ahoj děkuji ano ne také kolik',
  ru: 'и это как что когда где почему кто какой может вы я мой мне с для есть привет спасибо да нет тоже сколько ли',
  uk: 'і це як що коли де чому хто який може ви я мій мені з для є привіт дякую так ні також скільки чи',
  tr: 've bir bu nasıl ne zaman nerede neden kim hangi mi mı mu mü siz ben benim ile için var merhaba teşekkürler evet hayır da de kaç',
  zh: '',
  ko: '',
};
const markerSets = new Map(Object.entries(MARKERS).map(([k, v]) => [k, new Set(v.split(' ').filter(Boolean))]));

/** The language of `text` among `candidates`, or null when the words do not say clearly. */
export function detectLanguage(text: string, candidates: readonly string[]): string | null {
  if (candidates.includes('ja') && /[\u3040-\u30ff]/.test(text)) return 'ja';
  if (candidates.includes('ko') && /\p{Script=Hangul}/u.test(text)) return 'ko';
  if (candidates.includes('zh') && /\p{Script=Han}/u.test(text) && !/[\u3040-\u30ff]/.test(text)) return 'zh';
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (!words.length) return null;
  let best: string | null = null;
  let bestHits = 0;
  let second = 0;
  for (const lang of candidates) {
    const set = markerSets.get(lang);
    if (!set) continue;
    let hits = 0;
    for (const w of words) if (set.has(w)) hits++;
    // Letters only some languages use are strong hints.
    if (lang === 'de' && /[äöüß]/.test(text)) hits += 2;
    if (lang === 'es' && /[ñ¿¡]/.test(text)) hits += 2;
    if (lang === 'fr' && /[çœ]|[àè]\s/.test(text)) hits += 1;
    if (lang === 'uk' && /[іїєґ]/iu.test(text)) hits += 2;
    if (lang === 'ru' && /[ыэъё]/iu.test(text)) hits += 2;
    if (lang === 'tr' && /[ığş]/iu.test(text)) hits += 2;
    if (lang === 'pl' && /[ąęłńśźż]/iu.test(text)) hits += 2;
    if (lang === 'cs' && /[ěřůčš]/iu.test(text)) hits += 2;
    if (hits > bestHits) {
      second = bestHits;
      bestHits = hits;
      best = lang;
    } else if (hits > second) second = hits;
  }
  return best && bestHits > second ? best : null;
}

/** English names of languages, for the language model's instructions. */
const NAMES: Record<string, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  ja: 'Japanese',
  da: 'Danish',
  sv: 'Swedish',
  nb: 'Norwegian',
  no: 'Norwegian',
  fi: 'Finnish',
  pl: 'Polish',
  cs: 'Czech',
  tr: 'Turkish',
  ru: 'Russian',
  uk: 'Ukrainian',
  zh: 'Chinese',
  ko: 'Korean',
  ar: 'Arabic',
  hi: 'Hindi',
  el: 'Greek',
  hu: 'Hungarian',
  ro: 'Romanian',
};

export function languageName(lang: string): string {
  return NAMES[primaryLanguage(lang)] ?? lang;
}

// Norwegian: `no` is the macrolanguage, Bokmål (`nb`) its written standard.
const SAME_AS: Record<string, string> = { no: 'nb' };

/** The primary languages the PAL has its own lines in (and so can be asked to speak). */
export const spokenLanguages: readonly string[] = [...Object.keys(LINES), ...Object.keys(SAME_AS)];

// A language the PAL speaks has its card lines too (checked once at load, like the tags).
for (const lang of Object.keys(LINES))
  if (!CARD_LINES[lang] || !ANSWER_LINES[lang]) throw new Error(`language ${lang} has no card or answer lines`);

/** The PAL's lines in `lang` (English when the PAL has none in that language; the API refuses such languages). */
export function palLines(lang: string): PalLines {
  const primary = primaryLanguage(lang);
  return LINES[SAME_AS[primary] ?? primary] ?? LINES.en!;
}

/** One of the PAL's lines in `lang`, with `{name}`/`{topics}` filled in. */
export function palLine(lang: string, key: Exclude<keyof PalLines, 'leadIns'>, vars: Record<string, string> = {}): string {
  return palLines(lang)[key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
}

/** A frame of a knowledge answer in `lang` (answer-lines.ts), with its `{…}` filled in. */
export function answerLine(lang: string, key: keyof AnswerLines, vars: Record<string, string> = {}): string {
  const primary = primaryLanguage(lang);
  const lines = ANSWER_LINES[SAME_AS[primary] ?? primary] ?? ANSWER_LINES.en!;
  return lines[key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
}

/** A Magic Canvas card's line or text in `lang`, with its `{…}` filled in (pal-card-lines.ts). */
export function cardLine(lang: string, key: keyof CardLines, vars: Record<string, string> = {}): string {
  const primary = primaryLanguage(lang);
  const lines = CARD_LINES[SAME_AS[primary] ?? primary] ?? CARD_LINES.en!;
  return lines[key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');
}

/** "a, b and c" in `lang`. */
export function joinList(items: string[], lang: string): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${palLines(lang).and} ${items[items.length - 1]}`;
}
