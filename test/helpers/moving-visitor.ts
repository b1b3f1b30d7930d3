// A scripted visitor for failover tests that speaks the room protocol through the page's own connection
// (src/palkit/client/transport/room-connection.ts, on Node's WebSocket and timers): it joins again when the
// room moves, pings a quiet room, tells "reconnecting" after a second without an answer, and keeps what it
// says until a room has read it. Each socket goes to the instance `route()` names, as a balancer would send
// it to a live one.
import { RoomConnection, type JoinedFrame } from '../../src/palkit/client/transport/room-connection.js';
import type { ServerFrame } from '../../src/protocol/room.js';

export type AppMessage = { event_type: string; properties: Record<string, any>; inference_id?: string };

export interface VisitorMark {
  what: 'reconnecting' | 'reconnected' | 'joined' | 'lost' | 'closed';
  /** performance.now() of the test process. */
  at: number;
  /** The instance's base URL the socket went to (joined marks). */
  via?: string;
}

export class MovingVisitor {
  readonly frames: ServerFrame[] = [];
  readonly marks: VisitorMark[] = [];
  readonly connection: RoomConnection;
  #via = '';
  #waiters: Array<() => void> = [];

  constructor(conversationUrl: string, token: string, route: () => string, userName = 'Visitor') {
    this.connection = new RoomConnection(
      conversationUrl,
      () => ({ type: 'join', meeting_token: token, user_name: userName, text_mode: true }),
      {
        joined: (frame: JoinedFrame) => this.#mark('joined', frame),
        frame: (frame) => this.#mark(null, frame),
        audio: () => undefined,
        lost: () => this.#mark('lost', null),
        notice: (code) => this.#mark(code, null),
      },
      (url) => {
        this.#via = route();
        const socket = new WebSocket(url.replace(/^(ws|http)s?:\/\/[^/]+/, this.#via.replace(/^http/, 'ws')));
        socket.addEventListener('close', () => this.#mark('closed', null));
        return socket;
      },
    );
  }

  join(): Promise<void> {
    return this.connection.open();
  }

  #mark(what: VisitorMark['what'] | null, frame: ServerFrame | null): void {
    if (frame) this.frames.push(frame);
    if (what) this.marks.push({ what, at: performance.now(), ...(what === 'joined' ? { via: this.#via } : {}) });
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Types a line to the PAL (kept by the connection until a room has read it). */
  ask(text: string): void {
    this.connection.send({
      type: 'app-message',
      data: { message_type: 'conversation', event_type: 'conversation.respond', properties: { text } },
    });
  }

  messages(): AppMessage[] {
    return this.frames.flatMap((f) => (f.type === 'app-message' ? [f.data as AppMessage] : []));
  }

  events(eventType: string): AppMessage[] {
    return this.messages().filter((m) => m.event_type === eventType);
  }

  marksOf(what: VisitorMark['what'], after = -Infinity): VisitorMark[] {
    return this.marks.filter((m) => m.what === what && m.at > after);
  }

  async until<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined && found !== false) return found;
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}; marks ${JSON.stringify(this.marks.map((m) => m.what))}, events ${JSON.stringify(
            this.messages()
              .slice(-12)
              .map((m) => m.event_type),
          )}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  close(): void {
    this.connection.close();
  }
}
