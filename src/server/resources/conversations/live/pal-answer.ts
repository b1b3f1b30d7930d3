// How the local PAL finds words for a reply: echo PALs repeat; full PALs ask an OpenAI-compatible model
// when one is configured (with knowledge, memories and context in the prompt), otherwise they answer
// from their knowledge documents, pinned memories and context alone; both in the reply language.
import type { ServiceDeps } from '../../../context.js';
import type { LiveConversation } from './live-conversation.js';
import { answerFromKnowledge, recall, systemPrompt } from './pal-knowledge.js';
import { palLine, replyLanguage } from './pal-language.js';
import { streamChat, type ChatMessage } from './pal-llm.js';
import { SpeakableStream } from './pal-speakable.js';
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
  const lang = replyLanguage(conv, text);
  return async function* (signal) {
    const known = await recall(deps, conv, text);
    if (!deps.config.llm.baseUrl) {
      yield answerFromKnowledge(text, known, ctx.context, lang);
      return;
    }
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(conv, ctx.context, known, lang) },
      ...earlier,
      { role: 'user', content: text },
    ];
    // Deltas pass on as they come (only the word being written waits), cleaned of markdown and URLs.
    const speech = new SpeakableStream();
    let said = false;
    try {
      for await (const delta of streamChat(deps, messages, signal)) {
        const ready = speech.push(delta);
        if (!ready) continue;
        said = true;
        yield ready;
      }
      const rest = speech.end();
      if (rest) yield rest;
    } catch (error) {
      if (signal.aborted) throw error;
      deps.log.error('language model failed', { conversation_id: conv.conversationId, error: error instanceof Error ? error.message : String(error) });
      const rest = speech.end();
      if (rest) yield rest;
      if (!said && !rest) yield palLine(lang, 'llmFailure');
    }
  };
}

export function once(text: string): SpeechSource {
  return async function* () {
    yield text;
  };
}
