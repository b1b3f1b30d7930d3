// How the local PAL finds words for a reply: echo PALs repeat; full PALs ask an OpenAI-compatible model
// when one is configured (with knowledge, memories and context in the prompt), otherwise they answer
// from their knowledge documents, pinned memories and context alone.
import type { ServiceDeps } from '../../../context.js';
import { conversationLanguage, type LiveConversation } from './live-conversation.js';
import { phrasesFor } from './pal-phrases.js';
import { answerFromKnowledge, recall, systemPrompt } from './pal-knowledge.js';
import { streamChat, type ChatMessage } from './pal-llm.js';
import type { SpeechSource } from './pal-speech.js';

export interface AnswerContext {
  deps: ServiceDeps;
  conv: LiveConversation;
  /** The conversational context as overwritten or appended during the call. */
  context: string | null;
  /** Earlier turns, oldest first. */
  history: ChatMessage[];
}

const HISTORY_TURNS = 20;

export function answerSource(ctx: AnswerContext, text: string): SpeechSource {
  const { deps, conv } = ctx;
  if (conv.pal.pipelineMode === 'echo') return once(text);
  // The turns before this one, as they are now (the source runs later, when the PAL gets to speak).
  const earlier = ctx.history.slice(-HISTORY_TURNS);
  return async function* (signal) {
    const known = await recall(deps, conv, text);
    const language = conversationLanguage(conv);
    if (!deps.config.llm.baseUrl) {
      yield answerFromKnowledge(text, known, ctx.context, phrasesFor(language));
      return;
    }
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(conv, ctx.context, known, language) },
      ...earlier,
      { role: 'user', content: text },
    ];
    let said = false;
    try {
      for await (const delta of streamChat(deps, messages, signal)) {
        said = true;
        yield delta;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      deps.log.error('language model failed', { conversation_id: conv.conversationId, error: error instanceof Error ? error.message : String(error) });
      if (!said) yield phrasesFor(conversationLanguage(conv)).lostThread;
    }
  };
}

export function once(text: string): SpeechSource {
  return async function* () {
    yield text;
  };
}
