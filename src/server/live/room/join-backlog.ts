// What a connection sends while its join is checked (the token, the database, the room's holder): kept
// in order for the room, which reads it through the participant's budget like any frame. Bounded, so
// that a visitor cannot queue more than a page sends in that moment; beyond the bound it is dropped.
import type { RawData } from 'ws';

export const JOIN_BACKLOG_LIMITS = { frames: 64, bytes: 256 * 1024 } as const;

export type BackloggedFrame = [data: RawData | string, isBinary: boolean];

export class JoinBacklog {
  private frames: BackloggedFrame[] = [];
  private bytes = 0;
  /** Set once the room (or the relay) reads the connection itself: later frames are not kept here. */
  handedOff = false;

  /** Keeps the frame; false when it is past the bound (or already handed off) and was dropped. */
  push(data: RawData | string, isBinary: boolean): boolean {
    if (this.handedOff) return true;
    const size = byteLength(data);
    if (this.frames.length >= JOIN_BACKLOG_LIMITS.frames || this.bytes + size > JOIN_BACKLOG_LIMITS.bytes) return false;
    this.frames.push([data, isBinary]);
    this.bytes += size;
    return true;
  }

  /** The frames kept so far, in order, and the backlog handed off: each is read once. */
  handOff(): BackloggedFrame[] {
    const frames = this.frames;
    this.frames = [];
    this.bytes = 0;
    this.handedOff = true;
    return frames;
  }
}

function byteLength(data: RawData | string): number {
  if (Array.isArray(data)) return data.reduce((n, part) => n + part.byteLength, 0);
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}
