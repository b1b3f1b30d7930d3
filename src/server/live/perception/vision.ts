// One request to an OpenAI-compatible vision model (POST {base}/chat/completions, not streamed): the
// instructions as text and each frame as an `image_url` part holding a JPEG data URL.
import type { ServiceDeps } from '../../app/context.js';

export class VisionError extends Error {}

export async function describeFrames(deps: Pick<ServiceDeps, 'config' | 'fetch'>, instructions: string, frames: Uint8Array[], signal?: AbortSignal): Promise<string> {
  const { baseUrl, apiKey, model } = deps.config.vision;
  if (!baseUrl) throw new VisionError('no vision model is configured');
  const response = await deps.fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({
      model: model ?? 'gpt-4o-mini',
      max_tokens: 400,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: instructions },
            ...frames.map((f) => ({ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${Buffer.from(f).toString('base64')}`, detail: 'low' } })),
          ],
        },
      ],
    }),
    ...(signal ? { signal } : {}),
    timeoutMs: 60_000,
    maxBytes: 256 * 1024,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new VisionError(`vision model answered ${response.status}`);
  }
  const body = (await response.json().catch(() => null)) as { choices?: Array<{ message?: { content?: unknown } }> } | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new VisionError('vision model gave no analysis');
  return content.trim();
}
