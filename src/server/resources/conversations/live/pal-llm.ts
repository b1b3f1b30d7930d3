// A streaming client for an OpenAI-compatible chat endpoint (POST {base}/chat/completions with
// stream: true, answered as server-sent events of `chat.completion.chunk`s, ended by `data: [DONE]`).
import type { ServiceDeps } from '../../../context.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {}

/** Yields the reply's text deltas as they arrive. */
export async function* streamChat(deps: Pick<ServiceDeps, 'config' | 'fetch'>, messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string> {
  const { baseUrl, apiKey, model } = deps.config.llm;
  if (!baseUrl) throw new LlmError('no language model is configured');
  const response = await deps.fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({ model: model ?? 'gpt-4o-mini', stream: true, messages }),
    signal,
    timeoutMs: 120_000,
    maxBytes: 4 * 1024 * 1024,
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new LlmError(`language model answered ${response.status}`);
  }
  const decoder = new TextDecoder();
  let buffer = '';
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
      if (data === '[DONE]') return;
      const delta = contentOf(data);
      if (delta) yield delta;
    }
  }
}

function contentOf(data: string): string | undefined {
  try {
    const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown } }>; error?: { message?: string } };
    if (chunk.error) throw new LlmError(`language model error: ${chunk.error.message ?? 'unknown'}`);
    const content = chunk.choices?.[0]?.delta?.content;
    return typeof content === 'string' ? content : undefined;
  } catch (error) {
    if (error instanceof LlmError) throw error;
    return undefined; // a keep-alive or a line we do not understand
  }
}
