// What generation needs from a renderer: speech from text, and a talking-face video from a face's
// image or video plus that speech. The local renderer (espeak-ng + ffmpeg) implements it; a hosted
// rendering provider could too. Apart from renderer.ts (which picks the renderer), so an implementation
// never imports the module that imports it (no import cycle).

export type AudioFormat = 'mp3' | 'ogg' | 'wav';

export interface RenderedSpeech {
  bytes: Uint8Array;
  contentType: string;
  /** File extension matching contentType (mp3, ogg, wav). */
  extension: AudioFormat;
  durationSeconds: number;
}

export interface MediaInput {
  bytes: Uint8Array;
  kind: 'image' | 'video';
}

export interface VideoInput {
  /** The face: a still image (shown for the whole video) or a video (looped). */
  face: MediaInput;
  /** The speech to put under it, as rendered by renderSpeech. */
  speech: RenderedSpeech;
  /** Optional backdrop; the face is shown over it, picture-in-picture. */
  background?: MediaInput;
}

export interface RenderedVideo {
  mp4: Uint8Array;
  /** A still frame, JPEG. */
  still: Uint8Array;
  /** A short, small animated preview. */
  gif: Uint8Array;
  durationSeconds: number;
}

export interface RenderOptions {
  signal?: AbortSignal;
}

export interface Renderer {
  /** `format` absent: the best the renderer can encode (mp3 when possible, else wav). */
  renderSpeech(text: string, voice: string, format?: AudioFormat, options?: RenderOptions): Promise<RenderedSpeech>;
  renderVideo(input: VideoInput, options?: RenderOptions): Promise<RenderedVideo>;
}

/**
 * A failure that another attempt would not fix (a tool is missing, the input cannot be decoded):
 * generation ends in `error` with this message as `error_details` at once instead of retrying.
 */
export class RenderError extends Error {}
