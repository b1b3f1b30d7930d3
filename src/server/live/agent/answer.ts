// How the local PAL finds words for a reply: echo PALs repeat; full PALs ask an OpenAI-compatible model
// when one is configured (with knowledge, memories and context in the prompt), otherwise they answer
// from their knowledge documents, pinned memories and context alone; both in the reply language.
import type { ServiceDeps } from '../../platform/context.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { answerFromKnowledge, recall, systemPrompt } from './knowledge.js';
import { palLine, replyLanguage } from '../../resources/pals/lines/language.js';
import { streamChat, type ChatMessage, type LlmToolCall } from './llm.js';
import type { PalTools } from './tools.js';
import { SpeakableStream } from '../speech/speakable.js';
import type { SpeechSource } from '../speech/utterances.js';

export interface AnswerContext {
  deps: ServiceDeps;
  conv: LiveConversation;
  /** The conversational context as overwritten or appended during the call. */
  context: string | null;
  /** Earlier turns, oldest first. */
  history: ChatMessage[];
  /** The MCP tools of the PAL's connectors, listed when the conversation started. */
  tools: Promise<PalTools>;
  /** The PAL is calling a tool while answering the turn `inferenceId` (shown in the room as `conversation.tool_call`). */
  onToolCall(call: LlmToolCall, inferenceId: string | undefined): void;
}

const HISTORY_TURNS = 20;
/** How many rounds of tool calls one reply may take before the model must answer in words. */
const MAX_TOOL_ROUNDS = 4;

export function answerSource(ctx: AnswerContext, text: string, inferenceId?: string): SpeechSource {
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
    const tools = await ctx.tools;
    // Deltas pass on as they come (only the word being written waits), cleaned of markdown and URLs.
    const speech = new SpeakableStream();
    let said = false;
    try {
      for (let round = 0; ; round++) {
        const offered = round < MAX_TOOL_ROUNDS ? tools.definitions : [];
        let calls: LlmToolCall[] = [];
        let written = '';
        for await (const delta of streamChat(deps, messages, signal, offered)) {
          if (typeof delta !== 'string') {
            calls = delta.toolCalls;
            continue;
          }
          written += delta;
          const ready = speech.push(delta);
          if (!ready) continue;
          said = true;
          yield ready;
        }
        if (!calls.length) break;
        // The model asked for tools: show each call, run them, and let the model go on with their results.
        messages.push({
          role: 'assistant',
          content: written || null,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        });
        for (const call of calls) {
          ctx.onToolCall(call, inferenceId);
          const outcome = await tools.call(call.name, call.arguments, signal);
          messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.ok ? outcome.output : `Error: ${outcome.output}` });
        }
      }
      const rest = speech.end();
      if (rest) yield rest;
    } catch (error) {
      if (signal.aborted) throw error;
      deps.log.error('language model failed', {
        conversation_id: conv.conversationId,
        error: error instanceof Error ? error.message : String(error),
      });
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
