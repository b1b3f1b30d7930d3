// What the local PAL knows when answering: passages of its knowledge documents, the pinned memories of
// the conversation's memory stores, and its conversational context. Without a language model it
// answers from these alone.
import type { ServiceDeps } from '../../../context.js';
import { searchKnowledge } from '../../documents/knowledge.js';
import { visitorMemoryStoreIds } from '../../memory-stores/repository.js';
import type { LiveConversation } from './live-conversation.js';

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

const STOP = new Set('the and for you are was what who how why when where can could would should have has had does did this that with from your about tell know please there their them they then than our out any all but not yes just like want into more some'.split(' '));

function keywords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !STOP.has(w)));
}

function overlaps(text: string, words: Set<string>): number {
  let n = 0;
  for (const w of keywords(text)) if (words.has(w)) n++;
  return n;
}

function firstSentences(text: string, max = 320): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const sentences = clean.match(/[^.!?]+[.!?]+/g) ?? [clean];
  let out = '';
  for (const s of sentences) {
    if ((out + s).length > max && out) break;
    out += s;
  }
  return (out || clean.slice(0, max)).trim();
}

/** A reply built only from what the PAL knows (no language model). */
export function answerFromKnowledge(query: string, known: Recall, context: string | null): string {
  const words = keywords(query);
  const parts: string[] = [];
  const passage = known.passages.find((p) => p.content.trim());
  if (passage) parts.push(`From ${passage.document_name}: ${firstSentences(passage.content)}`);
  const memories = known.memories.filter((m) => overlaps(m, words) > 0).slice(0, 2);
  for (const m of memories) parts.push(`I remember that ${m.replace(/[.!?\s]+$/, '')}.`);
  if (!parts.length && context) {
    const sentence = (context.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean)
      .map((s) => ({ s, n: overlaps(s, words) })).sort((a, b) => b.n - a.n)[0];
    if (sentence && sentence.n > 0) parts.push(sentence.s);
  }
  if (parts.length) return parts.join(' ');
  if (/^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(query)) return 'Hello! What can I do for you?';
  return "I don't have anything about that in what I know yet. Could you tell me a bit more?";
}

/** The system prompt for a language model: the PAL's prompt, the context, memories and passages. */
export function systemPrompt(conv: LiveConversation, context: string | null, known: Recall): string {
  const sections: string[] = [];
  const prompt = conv.pal.definition.system_prompt;
  sections.push(typeof prompt === 'string' && prompt.trim() ? prompt.trim() : `You are ${conv.pal.name}, a helpful assistant in a live video conversation.`);
  sections.push('You are speaking aloud: answer in a few short sentences, without markdown.');
  if (context) sections.push(`Conversation context:\n${context}`);
  if (known.memories.length) sections.push(`Things you remember about this person:\n${known.memories.map((m) => `- ${m}`).join('\n')}`);
  if (known.passages.length) sections.push(`Relevant knowledge:\n${known.passages.map((p) => `[${p.document_name}] ${p.content}`).join('\n\n')}`);
  return sections.join('\n\n');
}
