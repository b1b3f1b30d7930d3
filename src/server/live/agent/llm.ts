// A streaming client for an OpenAI-compatible chat endpoint (POST {base}/chat/completions with
// stream: true, answered as server-sent events of `chat.completion.chunk`s, ended by `data: [DONE]`).
// With `tools`, the model may answer with function calls instead of (or after) text: their fragments
// (`delta.tool_calls[i]` with `id`, `function.name` and pieces of `function.arguments`) are assembled
// and yielded once, at the end of the stream.
import type { ServiceDeps } from '../../app/context.js';

export interface LlmToolCall {
  id: string;
  name: string;
  /** JSON text as the model wrote it. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function the model may call (`tools` of the chat completions request). */
export interface LlmTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** What the stream yields: a piece of the reply's text, or (last) the function calls the model made. */
export type ChatDelta = string | { toolCalls: LlmToolCall[] };

export class LlmError extends Error {}

/** Yields the reply's text deltas as they arrive, then the function calls, if the model made any. */
export async function* streamChat(deps: Pick<ServiceDeps, 'config' | 'fetch'>, messages: ChatMessage[], signal: AbortSignal, tools: LlmTool[] = []): AsyncGenerator<ChatDelta> {
  const { baseUrl, apiKey, model } = deps.config.llm;
  if (!baseUrl) throw new LlmError('no language model is configured');
  const response = await deps.fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({ model: model ?? 'gpt-4o-mini', stream: true, messages, ...(tools.length ? { tools } : {}) }),
    signal,
    timeoutMs: 120_000,
    maxBytes: 4 * 1024 * 1024,
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new LlmError(`language model answered ${response.status}`);
  }
  const decoder = new TextDecoder();
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let buffer = '';
  let finished = false;
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let boundary: number;
    while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue;
      if (data === '[DONE]') {
        finished = true;
        break;
      }
      const delta = deltaOf(data);
      if (!delta) continue;
      for (const fragment of delta.tool_calls ?? []) addFragment(calls, fragment);
      if (typeof delta.content === 'string' && delta.content) yield delta.content;
    }
    if (finished) break;
  }
  const made = calls.filter((c) => c.name);
  if (made.length) yield { toolCalls: made.map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments || '{}' })) };
}

interface ToolCallFragment {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function addFragment(calls: Array<{ id: string; name: string; arguments: string }>, fragment: ToolCallFragment): void {
  const index = typeof fragment.index === 'number' && fragment.index >= 0 && fragment.index < 16 ? fragment.index : calls.length;
  const call = (calls[index] ??= { id: '', name: '', arguments: '' });
  if (typeof fragment.id === 'string') call.id = fragment.id;
  if (typeof fragment.function?.name === 'string') call.name += fragment.function.name;
  if (typeof fragment.function?.arguments === 'string' && call.arguments.length < 64 * 1024) call.arguments += fragment.function.arguments;
}

function deltaOf(data: string): { content?: unknown; tool_calls?: ToolCallFragment[] } | undefined {
  try {
    const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown; tool_calls?: unknown } }>; error?: { message?: string } };
    if (chunk.error) throw new LlmError(`language model error: ${chunk.error.message ?? 'unknown'}`);
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return undefined;
    return { content: delta.content, ...(Array.isArray(delta.tool_calls) ? { tool_calls: delta.tool_calls as ToolCallFragment[] } : {}) };
  } catch (error) {
    if (error instanceof LlmError) throw error;
    return undefined; // a keep-alive or a line we do not understand
  }
}
