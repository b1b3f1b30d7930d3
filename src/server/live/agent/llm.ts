// The PAL's language model: the configured OpenAI-compatible chat endpoint (PALKIT_LLM_*), streamed.
// The wire format lives in providers/openai/chat.ts; this file picks the endpoint and the model, and
// names the failure as the agent knows it.
import type { ServiceDeps } from '../../platform/context.js';
import {
  openAiClient,
  OpenAiError,
  streamChat as streamOpenAiChat,
  type ChatDelta,
  type ChatMessage,
  type LlmTool,
} from '../../providers/openai/index.js';

export type { ChatDelta, ChatMessage, LlmTool, LlmToolCall } from '../../providers/openai/index.js';

export class LlmError extends Error {}

/** Yields the reply's text deltas as they arrive, then the function calls, if the model made any. */
export async function* streamChat(
  deps: Pick<ServiceDeps, 'config' | 'fetch'>,
  messages: ChatMessage[],
  signal: AbortSignal,
  tools: LlmTool[] = [],
): AsyncGenerator<ChatDelta> {
  const client = openAiClient(deps.config.llm, deps.fetch, 'language model');
  if (!client) throw new LlmError('no language model is configured');
  try {
    yield* streamOpenAiChat(client, { model: deps.config.llm.model ?? 'gpt-4o-mini', messages, tools }, signal);
  } catch (error) {
    throw error instanceof OpenAiError ? new LlmError(error.message) : error;
  }
}
