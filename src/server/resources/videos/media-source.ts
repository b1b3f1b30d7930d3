// Loads the bytes behind a media URL: files this service stores are read from its media store (no
// request to ourselves), anything else goes through the guarded fetch.
import type { ServiceDeps } from '../../platform/context.js';
import { RenderError } from './render/renderer.js';

const MAX_SOURCE_BYTES = 50 * 1024 * 1024;

export interface LoadedMedia {
  bytes: Uint8Array;
  contentType: string;
}

export async function loadMedia(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'fetch' | 'media'>,
  url: string,
  what: string,
): Promise<LoadedMedia> {
  const local = localMediaId(deps.config.publicUrl, url);
  if (local) {
    const media = await deps.media.get(deps.db, local);
    if (!media) throw new RenderError(`${what} ${url} no longer exists`);
    return { bytes: await media.bytes(), contentType: media.contentType };
  }
  let response: Response;
  try {
    response = await deps.fetch(url, { timeoutMs: 30_000, maxBytes: MAX_SOURCE_BYTES });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = `${what} ${url} could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
    // A refused address or an oversized file stays that way; network trouble may pass.
    throw code === 'outbound_blocked' || code === 'outbound_too_large' ? new RenderError(message) : new Error(message);
  }
  if (!response.ok) {
    await response.body?.cancel();
    const message = `${what} ${url} could not be fetched: the server answered ${response.status}`;
    throw response.status >= 500 || response.status === 429 ? new Error(message) : new RenderError(message);
  }
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
  };
}

/** 'image' or 'video' from a content type, sniffing the bytes when the type is generic. */
export function visualKind(media: LoadedMedia): 'image' | 'video' | undefined {
  if (media.contentType.startsWith('image/')) return 'image';
  if (media.contentType.startsWith('video/')) return 'video';
  const head = Buffer.from(media.bytes.subarray(0, 12));
  if (head[0] === 0xff && head[1] === 0xd8) return 'image';
  if (head.subarray(0, 4).toString('hex') === '89504e47') return 'image';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'video';
  if (head.subarray(0, 4).toString('hex') === '1a45dfa3') return 'video';
  return undefined;
}

function localMediaId(publicUrl: string, url: string): string | undefined {
  const prefix = `${publicUrl}/media/`;
  if (!url.startsWith(prefix)) return undefined;
  const id = url.slice(prefix.length);
  return /^[A-Za-z0-9.]+$/.test(id) ? id : undefined;
}
