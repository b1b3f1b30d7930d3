// What the local PAL knows when answering: passages of its knowledge documents, the pinned memories of
// the conversation's memory stores, and its conversational context. Without a language model it
// answers from these alone.
import type { ServiceDeps } from '../../../context.js';
import { searchKnowledge } from '../../documents/knowledge.js';
import type { LiveConversation } from './live-conversation.js';
import { smallTalk, type phrasesFor } from './pal-phrases.js';

type Phrases = ReturnType<typeof phrasesFor>;

export interface Recall {
  passages: Array<{ document_name: string; content: string; score: number }>;
  memories: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export async function recall(deps: ServiceDeps, conv: LiveConversation, query: string): Promise<Recall> {
  const documentIds = strings(conv.pal.definition.document_ids);
  const documentTags = strings(conv.pal.definition.document_tags);
  const passages =
    documentIds.length || documentTags.length
      ? await searchKnowledge(deps, { ownerId: conv.ownerId, documentIds, documentTags, query, limit: 3 }).catch((error: unknown) => {
          deps.log.error('knowledge search failed', { conversation_id: conv.conversationId, error: error instanceof Error ? error.message : String(error) });
          return [];
        })
      : [];
  const memories = conv.memoryStores.length
    ? (
        await deps.db
          .selectFrom('pinned_memories as m')
          .innerJoin('memory_stores as s', 's.memory_store_id', 'm.memory_store_id')
          .select('m.memory')
          .where('s.owner_id', '=', conv.ownerId)
          .where('s.memory_store_id', 'in', conv.memoryStores)
          .orderBy('m.created_at')
          .execute()
      ).map((r) => r.memory)
    : [];
  return { passages, memories };
}

const STOP = new Set(('the and for you are was what who how why when where which can could would should have has had does did this that with from your about tell know please there their them they then than our out any all but not yes just like want into more some much many long does take get give need '
  + 'der die das und ist wie was wer wann wo welche kann können ich sie ihr ihre haben hat mit von für auf ein eine einen nicht les des une est que qui quoi comment pour avec los las una por para como que').split(' '));

/** A word's stem, roughly: plurals and common endings removed, so that "delivery" meets "deliver" and "Lieferung" "liefern". */
function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  for (const suffix of ['ungen', 'ung', 'ing', 'ery', 'ers', 'er', 'ed', 'ly', 'en', 'n', 'y', 'e']) {
    if (w.length - suffix.length >= 4 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
  }
  return w;
}

function keywords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !STOP.has(w)).map(stem));
}

function overlaps(text: string, words: Set<string>): number {
  let n = 0;
  for (const w of keywords(text)) if (words.has(w)) n++;
  return n;
}

/** What kind of answer the question asks for, by its question words (English and a few others). */
function cues(question: string): RegExp[] {
  const q = question.toLowerCase();
  const wanted: RegExp[] = [];
  if (/how long|how many days|when|wie lange|wann|combien de temps|quand|cu[aá]nto tiempo|cu[aá]ndo/.test(q)) wanted.push(/\d|days?|weeks?|hours?|minutes?|tage?n?|wochen?|stunden?|jours?|d[ií]as?|:\d\d/i);
  if (/how much|cost|price|fee|wie viel|kosten|preis|combien|prix|cu[aá]nto cuesta|precio/.test(q)) wanted.push(/\d|€|\$|£|euros?|dollars?|free|kostenlos|gratuit|gratis/i);
  if (/where|wo |où|d[oó]nde/.test(q)) wanted.push(/\b(at|in|store|shop|address|street|geschäft|laden|magasin|tienda)\b/i);
  if (/size|tall|height|größe|taille|talla/.test(q)) wanted.push(/\d+\s*cm|\b(S|M|L|XL)\b/);
  return wanted;
}

interface Candidate {
  sentence: string;
  next: string | null;
  score: number;
}

/** Sentences of the passages that read as sentences: headings, titles, menus and fragments are left out. */
function sentencesOf(passage: { content: string }): Array<{ sentence: string; next: string | null; heading: string }> {
  const out: Array<{ sentence: string; next: string | null; heading: string }> = [];
  let heading = '';
  for (const line of passage.content.split(/\n+/).map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean)) {
    const sentences = (line.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? []).map((x) => x.trim()).filter(Boolean);
    const prose = sentences.filter((x) => /[.!?]$/.test(x) && x.split(/\s+/).length >= 4);
    if (!prose.length) {
      // A heading (or a menu): it says what the following sentences are about.
      if (line.split(/\s+/).length <= 8) heading = line;
      continue;
    }
    prose.forEach((sentence, i) => out.push({ sentence, next: prose[i + 1] ?? null, heading }));
  }
  return out;
}

/** The sentence (and perhaps the one after it) that best answers the question, or null. */
function bestAnswer(question: string, texts: Array<{ content: string }>): string | null {
  const words = keywords(question);
  const wanted = cues(question);
  let best: Candidate | null = null;
  for (const text of texts) {
    for (const { sentence, next, heading } of sentencesOf(text)) {
      let score = overlaps(sentence, words) * 2 + overlaps(heading, words);
      if (score === 0) continue;
      for (const cue of wanted) if (cue.test(sentence)) score += 1.5;
      if (!best || score > best.score) best = { sentence, next, score };
    }
  }
  if (!best) return null;
  // A second sentence when it carries on the same point and the answer stays short enough to say.
  const more = best.next && overlaps(best.next, words) > 0 && best.sentence.length + best.next.length < 240;
  return more ? `${best.sentence} ${best.next}` : best.sentence;
}

/** A spoken reply from what the PAL knows (no language model): the sentence or two that answer the question. */
export function answerFromKnowledge(query: string, known: Recall, context: string | null, phrases: Phrases): string {
  const talk = smallTalk(query, phrases);
  if (talk) return talk;
  const words = keywords(query);
  const memory = known.memories.find((m) => overlaps(m, words) > 0);
  const answer = bestAnswer(query, [...known.passages, ...(context ? [{ content: context }] : [])]);
  if (answer) return answer;
  if (memory) return `I remember that ${memory.replace(/[.!?\s]+$/, '')}.`;
  const topics = [...new Set(known.passages.map((p) => p.document_name))].slice(0, 2);
  return topics.length ? phrases.unsure(topics.join(' and ')) : phrases.unsureNoTopics;
}

/** The system prompt for a language model: the PAL's prompt, the context, memories and passages. */
export function systemPrompt(conv: LiveConversation, context: string | null, known: Recall, language: string): string {
  const sections: string[] = [];
  const prompt = conv.pal.definition.system_prompt;
  sections.push(typeof prompt === 'string' && prompt.trim() ? prompt.trim() : `You are ${conv.pal.name}, a helpful assistant in a live video conversation.`);
  sections.push('You are speaking aloud in a live video call: answer in one to three short, natural sentences, without markdown, lists or links.');
  sections.push(`Always answer in ${languageName(language)}.`);
  if (context) sections.push(`Conversation context:\n${context}`);
  if (known.memories.length) sections.push(`Things you remember about this person:\n${known.memories.map((m) => `- ${m}`).join('\n')}`);
  if (known.passages.length) sections.push(`Relevant knowledge:\n${known.passages.map((p) => `[${p.document_name}] ${p.content}`).join('\n\n')}`);
  return sections.join('\n\n');
}

function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
