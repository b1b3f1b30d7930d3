// Stand-ins the trained-face tests share (rig-face, rig-jaw, rig-prefetch): canvases painted in place, a rig's
// files served from memory by a fetch of their own, a face track's frame read back as the visitor's <video>
// shows it, and the room's side of the WebSocket.
import { until } from './fakes.js';

export function canvasOf(width: number, height: number, paint: (c: CanvasRenderingContext2D) => void): HTMLCanvasElement {
  const canvas = Object.assign(document.createElement('canvas'), { width, height });
  paint(canvas.getContext('2d')!);
  return canvas;
}

export const png = (canvas: HTMLCanvasElement) => new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));

/** A fetch serving `files` by path (404 for any other), noting each path asked for, in order. */
export function servedFiles(files: ReadonlyMap<string, Blob | string>): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fetcher = (async (input: RequestInfo | URL) => {
    const path = new URL(String(input), location.href).pathname;
    asked.push(path);
    const file = files.get(path);
    return file === undefined ? new Response('not found', { status: 404 }) : new Response(file);
  }) as typeof fetch;
  return { fetch: fetcher, asked };
}

/** The track's current frame, as the visitor's <video> would show it, read back as `size`² pixels. */
export async function frameOf(track: MediaStreamTrack, size: number): Promise<ImageData> {
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = new MediaStream([track]);
  await video.play();
  await until(() => video.videoWidth > 0, 'a frame');
  const canvas = canvasOf(size, size, (c) => c.drawImage(video, 0, 0, size, size));
  video.pause();
  return canvas.getContext('2d')!.getImageData(0, 0, size, size);
}

/** The room's side of the WebSocket, driven by the test. */
export class RoomSocket extends EventTarget {
  readyState: number = WebSocket.CONNECTING;
  constructor(readonly url: string) {
    super();
    setTimeout(() => ((this.readyState = WebSocket.OPEN), this.dispatchEvent(new Event('open'))));
  }
  send(): void {}
  close(): void {
    this.readyState = WebSocket.CLOSED;
  }
  frame(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}
