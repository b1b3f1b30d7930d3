// Chat completions: streamed (server-sent `chat.completion.chunk`s ended by `data: [DONE]`) for the
// PAL's replies, or whole for one-shot questions such as the vision model's. With `tools`, the model
// may answer with function calls instead of (or after) text: their fragments (`delta.tool_calls[i]`
// with `id`, `function.name` and pieces of `function.arguments`) are assembled and yielded once, at the
// end of the stream.
import { OpenAiError, type OpenAiClient } from './client.js';
import { ServerSentEventsError, sseData } from './sse.js';

export interface LlmToolCall {
  id: string;
  name: string;
  /** JSON text as the model wrote it. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string | ChatContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ChatContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };

/** A function the model may call (`tools` of the chat completions request). */
export interface LlmTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** What the stream yields: a piece of the reply's text, or (last) the function calls the model made. */
export type ChatDelta = string | { toolCalls: LlmToolCall[] };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: LlmTool[];
  maxTokens?: number;
}

/** The longest function-call arguments kept, and how many calls one reply may make. */
const MAX_ARGUMENTS = 64 * 1024;
const MAX_CALLS = 16;

/** Yields the reply's text deltas as they arrive, then the function calls, if the model made any. */
export async function* streamChat(client: OpenAiClient, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatDelta> {
  const { model, messages, tools = [] } = request;
  const response = await client.post('chat/completions', 'chatStream', {
    body: {
      model,
      stream: true,
      messages,
      ...(tools.length ? { tools } : {}),
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    },
    accept: 'text/event-stream',
    signal,
  });
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  try {
    for await (const data of sseData(client.chunks(response, signal))) {
      if (data === '[DONE]') break; // leaving the loop closes the stream
      const delta = deltaOf(client, data);
      if (!delta) continue;
      for (const fragment of delta.tool_calls ?? []) addFragment(calls, fragment);
      if (typeof delta.content === 'string' && delta.content) yield delta.content;
    }
  } catch (error) {
    throw error instanceof ServerSentEventsError ? new OpenAiError('malformed', `${client.label}: ${error.message}`) : error;
  }
  const made = calls.filter((c) => c.name);
  if (made.length) yield { toolCalls: made.map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments || '{}' })) };
}

/** One whole answer (not streamed): the first choice's text. */
export async function completeChat(client: OpenAiClient, request: ChatRequest, signal?: AbortSignal): Promise<string> {
  const { model, messages } = request;
  const body = (await client.postJson('chat/completions', 'chat', {
    body: { model, messages, ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}) },
    signal,
  })) as { choices?: Array<{ message?: { content?: unknown } }> } | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new OpenAiError('malformed', `${client.label} answered without a message`);
  return content;
}

interface ToolCallFragment {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function addFragment(calls: Array<{ id: string; name: string; arguments: string }>, fragment: ToolCallFragment): void {
  const index = typeof fragment.index === 'number' && fragment.index >= 0 && fragment.index < MAX_CALLS ? fragment.index : calls.length;
  if (index >= MAX_CALLS) return;
  const call = (calls[index] ??= { id: '', name: '', arguments: '' });
  if (typeof fragment.id === 'string') call.id = fragment.id;
  if (typeof fragment.function?.name === 'string') call.name += fragment.function.name;
  if (typeof fragment.function?.arguments === 'string' && call.arguments.length < MAX_ARGUMENTS)
    call.arguments += fragment.function.arguments;
}

function deltaOf(client: OpenAiClient, data: string): { content?: unknown; tool_calls?: ToolCallFragment[] } | undefined {
  let chunk: { choices?: Array<{ delta?: { content?: unknown; tool_calls?: unknown } }>; error?: { message?: unknown } };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch {
    return undefined; // a keep-alive or a line we do not understand
  }
  if (chunk.error) {
    const said = typeof chunk.error.message === 'string' ? chunk.error.message.slice(0, 300) : 'unknown';
    throw new OpenAiError('status', client.redact(`${client.label} error: ${said}`));
  }
  const delta = chunk.choices?.[0]?.delta;
  if (!delta) return undefined;
  return { content: delta.content, ...(Array.isArray(delta.tool_calls) ? { tool_calls: delta.tool_calls as ToolCallFragment[] } : {}) };
}
