// Stand-ins the trained-face tests share (rig-face, rig-jaw, rig-prefetch): canvases painted in place, a rig's
// files served from memory by a fetch of their own, a face track's frame read back as the visitor's <video>
// shows it, and the room's side of the WebSocket.
import type { FaceRig } from '../../../src/protocol/faces/rig.js';
import { VISEMES } from '../../../src/protocol/visemes.js';
import { waitFor } from './wait-for.js';

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

const RIG_SIZE = 64;
const grey = (width: number, height: number) =>
  png(
    canvasOf(width, height, (c) => {
      c.fillStyle = '#808080';
      c.fillRect(0, 0, width, height);
    }),
  );

/** A small grey rig's files at /faces/f1/ (or, with `json`, a rig.json that is not one), noting each request. */
export async function greyRigFiles(json?: string): Promise<{ fetch: typeof fetch; asked: string[] }> {
  const rig: FaceRig = {
    version: 1,
    width: RIG_SIZE,
    height: RIG_SIZE,
    fps: 10,
    idle: { url: 'idle.png', cellWidth: RIG_SIZE, cellHeight: RIG_SIZE, columns: 1, count: 1 },
    poses: [{ x: 32, y: 44, width: 20, angle: 0 }],
    blinks: [],
    mouths: { sheet: { url: 'sheets/mouths.png', cellWidth: 32, cellHeight: 16, columns: 1, count: 1 }, mouthWidth: 20 },
    visemes: Object.fromEntries(VISEMES.map((v) => [v, { cell: 0, source: 'warp' }])) as FaceRig['visemes'],
  };
  return servedFiles(
    new Map<string, Blob | string>([
      ['/faces/f1/rig.json', json ?? JSON.stringify(rig)],
      ['/faces/f1/idle.png', await grey(RIG_SIZE, RIG_SIZE)],
      ['/faces/f1/sheets/mouths.png', await grey(32, 16)],
    ]),
  );
}

/** The track's current frame, as the visitor's <video> would show it, read back as `size`² pixels. */
export async function frameOf(track: MediaStreamTrack, size: number): Promise<ImageData> {
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = new MediaStream([track]);
  await video.play();
  await waitFor(() => video.videoWidth > 0, { what: 'a frame' });
  const canvas = canvasOf(size, size, (c) => c.drawImage(video, 0, 0, size, size));
  video.pause();
  return canvas.getContext('2d')!.getImageData(0, 0, size, size);
}

/**
 * The room's side of the WebSocket, driven by the test; notes the text frames the page sends. It answers the
 * page's pings as a live room does (room-connection.ts), so the page never takes it for gone.
 */
export class RoomSocket extends EventTarget {
  readyState: number = WebSocket.CONNECTING;
  readonly sent: Array<{ type: string; [key: string]: unknown }> = [];
  constructor(readonly url: string) {
    super();
    setTimeout(() => ((this.readyState = WebSocket.OPEN), this.dispatchEvent(new Event('open'))));
  }
  send(data: string | ArrayBufferLike): void {
    if (typeof data !== 'string') return;
    const frame = JSON.parse(data) as { type: string; n?: number };
    if (frame.type === 'ping') return void setTimeout(() => this.readyState === WebSocket.OPEN && this.frame({ type: 'pong', n: frame.n }));
    this.sent.push(frame);
  }
  close(): void {
    this.readyState = WebSocket.CLOSED;
  }
  frame(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}
