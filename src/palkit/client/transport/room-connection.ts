// The WebSocket to a palkit room: opens it, joins with the meeting token, and joins the same conversation
// again when the room moves (its instance restarting, another instance taking it over) or the connection
// drops, so that the call goes on in the room's new home. The room is asked whether it is there (`ping`)
// whenever it has been quiet a moment: a socket may stay open to an instance whose room's holder died, so
// "reconnecting" is shown whenever no room has answered for a second, open socket or not. What the visitor
// sends meanwhile is kept (outbox.ts) and sent again once a room answers.
import { Outbox } from './outbox.js';
import * as z from 'zod/mini';
import { RoomCloseCode, ServerFrame, roomSocketUrl, type ClientFrame } from '../../../protocol/room.js';
import { PalClientError } from '../errors.js';
import { pageTimers, type Timers } from '../timers.js';

export type JoinFrame = Extract<ClientFrame, { type: 'join' }>;
export type JoinedFrame = Extract<ServerFrame, { type: 'joined' }>;

export interface RoomConnectionHandlers {
  /** Joined (`again` after the room moved): the participant's id and the room as it is now. */
  joined(frame: JoinedFrame, again: boolean): void;
  /** Every other frame from the room. */
  frame(frame: ServerFrame): void;
  audio(data: ArrayBuffer): void;
  /** The connection is gone for good: the call is over. */
  lost(reason: string, failed: boolean): void;
  /** `reconnecting` while no room has answered for RECONNECTING_AFTER_MS, `reconnected` once one does. */
  notice(code: 'reconnecting' | 'reconnected'): void;
}

/**
 * Close codes after which the visitor joins again: 1012 the room moved or its instance is restarting,
 * 1001 the server going away, 1006 the connection dropped without a close (a network change, a crash).
 */
const JOIN_AGAIN = new Set([1001, 1006, 1012]);
const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 2_000;
const GIVE_UP_AFTER_MS = 30_000;
/** A room quiet this long is asked whether it is there (and again as long as it stays quiet). */
export const PING_AFTER_MS = 300;
const PING_EVERY_MS = 500;
/** No room answering this long (and the watch's round at most): the visitor is told "reconnecting" within a second. */
export const RECONNECTING_AFTER_MS = 800;
/** An open socket whose room has not answered this long is given up and the room joined again. */
export const ABANDON_AFTER_MS = 5_000;
const WATCH_EVERY_MS = 100;
/** A gap this long between two rounds of the watch is the page's own stall (a frozen tab, a starved process), not the room's silence. */
const PAGE_STALL_MS = 1_000;

interface Refusal {
  code: number;
  message: string;
}

export class RoomConnection {
  #socket: WebSocket | null = null;
  /** The socket a room answered `joined` on, while it is the current one. */
  #joined: WebSocket | null = null;
  #closed = false;
  #everJoined = false;
  /** When a room last answered (any frame, its voice): on the page's clock. */
  #answeredAt = 0;
  #pingedAt = -Infinity;
  /** When the watch last ran: on the page's clock. */
  #watchedAt = 0;
  #pings = 0;
  #reconnecting = false;
  #watch: unknown;
  /** What the visitor said, kept until a room has read it. */
  readonly #outbox = new Outbox();

  constructor(
    private readonly url: string,
    /** The join frame as it is now (the visitor may have switched to text meanwhile). */
    private readonly joinFrame: () => JoinFrame,
    private readonly on: RoomConnectionHandlers,
    private readonly createSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
    /** The clock the waits between tries run on (a test's own in tests). */
    private readonly timers: Timers = pageTimers,
  ) {}

  /** Opens the room and joins; rejects with `join_failed` when the room refuses. */
  async open(): Promise<void> {
    const refused = await this.#connect();
    if (refused) throw new PalClientError('join_failed', refused.message);
  }

  /**
   * A frame to the room. App-messages (what the visitor says or types) are kept until a room has read them:
   * sent now when a room is joined, and again after a move unless a room answered a ping sent after them.
   */
  send(frame: ClientFrame): void {
    const text = JSON.stringify(frame);
    if (frame.type !== 'app-message') {
      if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(text);
      return;
    }
    this.#outbox.keep(text);
    this.#flush();
  }

  sendBinary(bytes: Uint8Array): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(bytes);
  }

  /** Closes for good (the visitor left, or the room said the call ended): no joining again. */
  close(): void {
    this.#closed = true;
    this.timers.clear(this.#watch);
    this.#socket?.close(1000);
    this.#socket = null;
    this.#joined = null;
  }

  /** Sends what is kept and not yet sent on the joined socket, then a ping that confirms it once answered. */
  #flush(): void {
    const socket = this.#joined;
    if (!socket || socket !== this.#socket || socket.readyState !== WebSocket.OPEN) return;
    const unsent = this.#outbox.unsent();
    if (!unsent.length) return;
    for (const text of unsent) socket.send(text);
    this.#ping();
  }

  #ping(): void {
    const socket = this.#joined;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const n = ++this.#pings;
    this.#pingedAt = this.timers.now();
    this.#outbox.sentBefore(n);
    socket.send(JSON.stringify({ type: 'ping', n } satisfies ClientFrame));
  }

  /** A room answered: the visitor is back if they were told otherwise. */
  #answered(): void {
    this.#answeredAt = this.timers.now();
    if (!this.#reconnecting) return;
    this.#reconnecting = false;
    this.on.notice('reconnected');
  }

  /** Every WATCH_EVERY_MS from the first join: asks a quiet room, tells the visitor, gives up a silent socket. */
  #watchRoom(): void {
    const gap = this.timers.now() - this.#watchedAt - WATCH_EVERY_MS;
    this.#watchedAt = this.timers.now();
    // While the page did not run, what the room sent waits behind this round: the stall is not the room's silence.
    if (gap >= PAGE_STALL_MS) this.#answeredAt += gap;
    const silentMs = this.timers.now() - this.#answeredAt;
    const socket = this.#joined;
    if (socket && silentMs >= PING_AFTER_MS && this.timers.now() - this.#pingedAt >= PING_EVERY_MS) this.#ping();
    if (silentMs >= RECONNECTING_AFTER_MS && !this.#reconnecting) {
      this.#reconnecting = true;
      this.on.notice('reconnecting');
    }
    if (socket && socket === this.#socket && silentMs >= ABANDON_AFTER_MS) {
      // Open, but nothing answers behind it: joined again (where a balancer sends it, a live instance).
      this.#socket = null;
      this.#joined = null;
      socket.close(1000);
      void this.#joinAgain();
    }
  }

  /** Opens a socket and joins: null once joined, else why the room refused (or the socket closed) before. */
  #connect(): Promise<Refusal | null> {
    const socket = this.createSocket(roomSocketUrl(this.url));
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    return new Promise((resolve) => {
      let joined = false;
      let refusal = '';
      socket.addEventListener('open', () => socket.send(JSON.stringify(this.joinFrame())));
      socket.addEventListener('message', (event) => {
        if (socket !== this.#socket) return; // given up (no room answered behind it)
        if (joined) this.#answered();
        if (event.data instanceof ArrayBuffer) return this.on.audio(event.data);
        const frame = parseFrame(event.data);
        if (!frame) return;
        if (frame.type === 'joined') {
          joined = true;
          this.#joined = socket;
          this.#answered();
          this.on.joined(frame, this.#everJoined);
          if (!this.#everJoined) {
            this.#watchedAt = this.timers.now();
            this.#watch = this.timers.setInterval(() => this.#watchRoom(), WATCH_EVERY_MS);
          }
          this.#everJoined = true;
          // What was said while no room answered, or not confirmed read before the move, goes to this one.
          this.#outbox.resend();
          this.#flush();
          resolve(null);
        } else if (frame.type === 'pong') {
          if (frame.n !== undefined) this.#outbox.confirmed(frame.n);
        } else if (frame.type === 'error' && !joined) {
          refusal = frame.message;
        } else {
          this.on.frame(frame);
        }
      });
      socket.addEventListener('close', (event) => {
        if (this.#joined === socket) this.#joined = null;
        if (this.#socket !== socket) return resolve({ code: 1006, message: closeMessage(1006) }); // given up already
        this.#socket = null;
        if (!joined) return resolve({ code: event.code, message: refusal || closeMessage(event.code) });
        if (this.#closed) return;
        if (JOIN_AGAIN.has(event.code)) void this.#joinAgain();
        else
          this.#lose(
            event.code === RoomCloseCode.ended ? 'ended' : 'connection lost',
            event.code !== RoomCloseCode.ended && event.code !== 1000,
          );
      });
    });
  }

  /**
   * Tries again after up to 0.1 s, then waits up to twice as long each time (at most 2 s) for up to 30 s.
   * The visitor is told once no room has answered for a second (#watchRoom). A room that says the call
   * ended, or refuses, ends the call.
   */
  async #joinAgain(): Promise<void> {
    const started = this.timers.now();
    for (let attempt = 0; ; attempt++) {
      // Half the wait, plus up to as much again at random: visitors of one restarted instance spread out.
      const wait = Math.min(FIRST_WAIT_MS * 2 ** attempt, LONGEST_WAIT_MS);
      await new Promise((resolve) => this.timers.setTimeout(() => resolve(undefined), wait / 2 + Math.random() * (wait / 2)));
      if (this.#closed) return;
      const refused = await this.#connect();
      if (this.#closed || !refused) return;
      if (refused.code === RoomCloseCode.ended) return this.#lose('ended', false);
      if (!JOIN_AGAIN.has(refused.code) || this.timers.now() - started > GIVE_UP_AFTER_MS) return this.#lose('connection lost', true);
    }
  }

  #lose(reason: string, failed: boolean): void {
    this.#closed = true;
    this.timers.clear(this.#watch);
    this.on.lost(reason, failed);
  }
}

function parseFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = z.safeParse(ServerFrame, JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function closeMessage(code: number): string {
  if (code === RoomCloseCode.invalidToken) return 'The meeting token was not accepted.';
  if (code === RoomCloseCode.notFound) return 'The conversation room does not exist.';
  if (code === RoomCloseCode.ended) return 'The conversation has already ended.';
  if (code === RoomCloseCode.replaced) return 'The conversation continues in another window.';
  return 'Could not connect to the conversation room.';
}

/** The page's time zone and language, so that the PAL says times as the visitor's clock reads them. */
export function visitorClock(): { time_zone?: string; locale?: string } {
  try {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const locale =
      (typeof document === 'undefined' ? '' : document.documentElement.lang) ||
      (typeof navigator === 'undefined' ? '' : navigator.language);
    return { ...(timeZone ? { time_zone: timeZone } : {}), ...(locale ? { locale } : {}) };
  } catch {
    return {};
  }
}
