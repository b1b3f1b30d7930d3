// One request to an OpenAI-compatible vision model (chat completions, not streamed): the instructions
// as text and each frame as an `image_url` part holding a JPEG data URL.
import type { ServiceDeps } from '../../platform/context.js';
import { completeChat, openAiClient, OpenAiError } from '../../providers/openai/index.js';

export class VisionError extends Error {}

export async function describeFrames(
  deps: Pick<ServiceDeps, 'config' | 'fetch'>,
  instructions: string,
  frames: Uint8Array[],
  signal?: AbortSignal,
): Promise<string> {
  const client = openAiClient(deps.config.vision, deps.fetch, 'vision model');
  if (!client) throw new VisionError('no vision model is configured');
  let content: string;
  try {
    content = await completeChat(
      client,
      {
        model: deps.config.vision.model ?? 'gpt-4o-mini',
        maxTokens: 400,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: instructions },
              ...frames.map((f) => ({
                type: 'image_url' as const,
                image_url: { url: `data:image/jpeg;base64,${Buffer.from(f).toString('base64')}`, detail: 'low' as const },
              })),
            ],
          },
        ],
      },
      signal,
    );
  } catch (error) {
    throw error instanceof OpenAiError ? new VisionError(error.message) : error;
  }
  if (!content.trim()) throw new VisionError('vision model gave no analysis');
  return content.trim();
}
