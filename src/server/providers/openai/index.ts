// The OpenAI-compatible client and its four capabilities; `openAiClient` builds one from a config entry.
import type { GuardedFetch } from '../../platform/net/guarded-fetch.js';
import { OpenAiClient } from './client.js';

export { OpenAiClient, OpenAiError, OPENAI_LIMITS, type OpenAiFailure } from './client.js';
export { openAiEndpoint } from './base-url.js';
export {
  completeChat,
  streamChat,
  type ChatContentPart,
  type ChatDelta,
  type ChatMessage,
  type LlmTool,
  type LlmToolCall,
} from './chat.js';
export { createEmbeddings } from './embeddings.js';
export { createSpeech, OPENAI_SPEECH_RATE } from './speech.js';
export { createTranscription } from './transcription.js';

/** A client for one configured endpoint (`config.llm`, `config.tts`…), or null when it has no base URL. */
export function openAiClient(
  endpoint: { baseUrl: string | undefined; apiKey: string | undefined },
  fetch: GuardedFetch,
  label: string,
): OpenAiClient | null {
  return endpoint.baseUrl ? new OpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey }, fetch, label) : null;
}
