// On the instance holding a room: a participant whose WebSocket is connected to another instance. The
// room treats it as any socket; what the room sends goes back over the instance channel, and what the
// participant sends arrives from it (queued until the room starts reading, as a real socket's frames
// wait in the kernel; as much as a join's backlog may hold, the rest dropped).
import { EventEmitter } from 'node:events';
import { systemClock } from '../../platform/time.js';
import type { RoomSocket } from '../room/members.js';
import { JoinBacklog } from '../room/join-backlog.js';

const OPEN = 1;
const CLOSED = 3;

export interface RelayedSocketLink {
  /** A text frame or binary audio for the participant. */
  send(data: string | Uint8Array): void;
  close(code: number, reason: string): void;
}

export class RelayedSocket extends EventEmitter implements RoomSocket {
  readonly OPEN = OPEN;
  readyState = OPEN;
  /** When the participant's instance last spoke for it (a frame, or its keep-alive). */
  lastSeen: number;
  closedForFlooding = false;
  private pending: JoinBacklog | null = new JoinBacklog();

  constructor(
    private readonly link: RelayedSocketLink,
    private readonly onDropped: () => void = () => undefined,
    /** The service's clock (milliseconds; the room relay passes it, the default is for units alone). */
    private readonly now: () => number = () => systemClock.now().getTime(),
  ) {
    super();
    this.lastSeen = now();
  }

  override on(event: string | symbol, listener: Parameters<EventEmitter['on']>[1]): this {
    super.on(event, listener);
    if (event === 'message' && this.pending) {
      const queued = this.pending.handOff();
      this.pending = null;
      for (const [data, isBinary] of queued) this.emit('message', data, isBinary);
    }
    return this;
  }

  send(data: string | Uint8Array): void {
    if (this.readyState === OPEN) this.link.send(data);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState !== OPEN) return;
    this.link.close(code, reason);
    this.closed();
  }

  /** A frame the participant sent (text, or microphone audio). */
  received(data: string | Buffer): void {
    this.lastSeen = this.now();
    if (this.readyState !== OPEN) return;
    const isBinary = typeof data !== 'string';
    if (!this.pending) this.emit('message', data, isBinary);
    else if (!this.pending.push(data, isBinary)) this.onDropped();
  }

  /** The participant's socket closed on its instance (`flooding`: closed there for flooding), or that instance went quiet. */
  closed(flooding = false): void {
    if (this.readyState === CLOSED) return;
    this.closedForFlooding = flooding;
    this.readyState = CLOSED;
    setImmediate(() => this.emit('close'));
  }
}
