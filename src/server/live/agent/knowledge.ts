// What the local PAL knows when answering: passages of its knowledge documents, the pinned memories of
// the conversation's memory stores, and its conversational context. Without a language model it
// answers from these alone.
import type { ServiceDeps } from '../../platform/context.js';
import { searchKnowledge } from '../../resources/documents/knowledge.js';
import { visitorMemoryStoreIds } from '../../resources/memory-stores/repository.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import {
  answerLine,
  conversationLanguages,
  joinList,
  languageName,
  languagesFixed,
  palLine,
  palLines,
  primaryLanguage,
  replyLanguage,
} from '../../resources/pals/lines/language.js';
import { smallTalk } from '../../resources/pals/lines/small-talk.js';
import { splitSentences } from '../../platform/text/sentences.js';
import { bestAnswer, sourceLanguage, type Picked, type Source } from './best-answer.js';
import { askedKinds, type FactKind } from './question-kinds.js';
import { questionParts } from './question-parts.js';

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
      ? await searchKnowledge(deps, { ownerId: conv.ownerId, documentIds, documentTags, query, limit: 4 }).catch((error: unknown) => {
          deps.log.error('knowledge search failed', {
            conversation_id: conv.conversationId,
            error: error instanceof Error ? error.message : String(error),
          });
          return [];
        })
      : [];
  // memory_stores are visitor identifiers: the stores they stand for are chosen by the memory-stores rule.
  const storeIds = await visitorMemoryStoreIds(deps.db, conv.ownerId, conv.pal.palId, conv.memoryStores);
  const memories = storeIds.length
    ? (
        await deps.db
          .selectFrom('pinned_memories as m')
          .innerJoin('memory_stores as s', 's.memory_store_id', 'm.memory_store_id')
          .select('m.memory')
          .where('s.owner_id', '=', conv.ownerId)
          .where('s.memory_store_id', 'in', storeIds)
          .orderBy('m.created_at')
          .execute()
      ).map((r) => r.memory)
    : [];
  return { passages, memories };
}

/** A reply built only from what the PAL knows (no language model), in `lang`: the sentence or two that answer. */
export function answerFromKnowledge(query: string, known: Recall, context: string | null, lang = 'en'): string {
  const talk = smallTalk(query, lang);
  if (talk) return palLine(lang, talk);
  // Knowledge written in another language than the visitor's is read in its own (its words are stemmed so).
  const sources: Source[] = [
    // Retrieval's order counts a little: the best passage wins a tie.
    ...known.passages.map((p, i) => ({
      text: p.content,
      boost: i === 0 ? 0.15 : 0,
      kind: 'passage' as const,
      lang: sourceLanguage(p.content, lang),
    })),
    ...known.memories.map((m) => ({ text: m, boost: 0.3, kind: 'memory' as const, lang: sourceLanguage(m, lang) })),
    ...(context ? [{ text: context, kind: 'context' as const, lang: sourceLanguage(context, lang) }] : []),
  ];
  const parts = questionParts(query);
  if (parts.length === 1) {
    const picked = bestAnswer(query, sources, { lang });
    return picked ? phrased(picked, query, lang) : unsure(known, lang);
  }
  // A question in two parts: each answered on its own (a part naming no topic takes the others'), each
  // unanswered part named, and nothing said twice.
  const answers = parts.map((part) => {
    const others = parts.filter((p) => p !== part).join(' ');
    return { part, kinds: askedKinds(part, lang), picked: bestAnswer(part, sources, { lang, topicFrom: others, maxChars: 200 }) };
  });
  if (answers.every((a) => !a.picked)) return unsure(known, lang);
  const said: string[] = [];
  // Facts in another language than the visitor's are quoted together, in one frame where the first stood.
  const foreign: string[] = [];
  let foreignAt = -1;
  for (const a of answers) {
    if (!a.picked) said.push(unsurePart(a.part, a.kinds, lang));
    else if (said.some((s) => s.includes(a.picked!.text)) || foreign.includes(a.picked.text)) continue;
    else if (inOtherLanguage(a.picked, lang)) {
      if (foreignAt < 0) foreignAt = said.push('') - 1;
      foreign.push(a.picked.text);
    } else said.push(phrased(a.picked, a.part, lang, false));
  }
  if (foreign.length) said[foreignAt] = answerLine(lang, 'quoted', { fact: foreign.join(' ') });
  return said.join(' ');
}

/** A picked sentence as a reply: remembered things as such, a fact in another language quoted, else now and then a lead-in. */
function phrased(picked: Picked, query: string, lang: string, leadIn = true): string {
  if (inOtherLanguage(picked, lang)) return answerLine(lang, 'quoted', { fact: picked.text });
  if (picked.kind === 'memory') return palLines(lang).remember + lowerFirst(picked.text);
  // A lead-in now and then, so replies do not all sound alike — but never a third sentence.
  if (!leadIn || splitSentences(picked.text).length > 1) return picked.text;
  const leadIns = palLines(lang).leadIns;
  return leadIns[hash(query) % leadIns.length] + picked.text;
}

function inOtherLanguage(picked: Picked, lang: string): boolean {
  return primaryLanguage(picked.lang) !== primaryLanguage(lang);
}

/** The honest line for one part of a question: what it asked (a price, a time, a place) is not known. */
function unsurePart(part: string, kinds: FactKind[], lang: string): string {
  if (kinds.includes('price')) return answerLine(lang, 'unsurePrice');
  if (kinds.includes('time')) return answerLine(lang, 'unsureTime');
  if (kinds.includes('place')) return answerLine(lang, 'unsurePlace');
  return answerLine(lang, 'unsurePart', { part: part.replace(/[?？。.!]+$/u, '').trim() });
}

/** The honest "I don't know", naming what the PAL can help with. */
function unsure(known: Recall, lang: string): string {
  const topics = [...new Set(known.passages.map((p) => topicName(p.document_name)).filter(Boolean))].slice(0, 3);
  return topics.length ? palLine(lang, 'unsureWithTopics', { topics: joinList(topics, lang) }) : palLine(lang, 'unsure');
}

/** A document name as said aloud: no file extension, no separators. */
function topicName(name: string): string {
  return name
    .replace(/\.(?:md|markdown|txt|pdf|docx?|html?)$/i, '')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function lowerFirst(text: string): string {
  // Keep names and "I" capitalised: only lower a common first word.
  return /^(?:The|A|An|My|Your|Der|Die|Das|Ein|Eine|Le|La|Les|El|Il|O|De|Het)\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

/** The system prompt for a language model: the PAL's prompt, how to speak, the context, memories and passages. */
export function systemPrompt(conv: LiveConversation, context: string | null, known: Recall, lang = replyLanguage(conv)): string {
  const sections: string[] = [];
  const prompt = conv.pal.definition.system_prompt;
  sections.push(
    typeof prompt === 'string' && prompt.trim()
      ? prompt.trim()
      : `You are ${conv.pal.name}, a helpful assistant in a live video conversation.`,
  );
  const name = languageName(lang);
  const others = conversationLanguages(conv)
    .filter((l) => l !== lang)
    .map(languageName);
  // No language named by the owner: the visitor's own language, whichever it is.
  const switching = languagesFixed(conv)
    ? others.length
      ? `; if the visitor switches to ${others.join(' or ')}, reply in that language`
      : ''
    : "; always reply in the language of the visitor's last message, even when your knowledge is written in another";
  sections.push(
    `Reply in ${name} (${lang})${switching}. ` +
      'Your words are spoken aloud in a live call: answer briefly and conversationally, in one to three short sentences unless asked for more. ' +
      'Plain sentences only: no markdown, no lists, no headings, no links or URLs, no emoji.',
  );
  if (context) sections.push(`Conversation context:\n${context}`);
  if (known.memories.length) sections.push(`Things you remember about this person:\n${known.memories.map((m) => `- ${m}`).join('\n')}`);
  if (known.passages.length) {
    sections.push(
      'Background knowledge (use it to answer in your own words; do not read it out or name where it came from; if it does not cover the question, say you are not sure):\n' +
        known.passages.map((p) => `[${p.document_name}] ${p.content}`).join('\n\n'),
    );
  }
  return sections.join('\n\n');
}
