// The WebSocket to a palkit room: opens it, joins with the meeting token, and joins the same conversation
// again when the room moves (its instance restarting, another instance taking it over) or the connection
// drops, so that the call goes on in the room's new home.
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
  /** `reconnecting` while joining again takes longer than a moment, `reconnected` once back. */
  notice(code: 'reconnecting' | 'reconnected'): void;
}

/**
 * Close codes after which the visitor joins again: 1012 the room moved or its instance is restarting,
 * 1001 the server going away, 1006 the connection dropped without a close (a network change, a crash).
 */
const JOIN_AGAIN = new Set([1001, 1006, 1012]);
const FIRST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 2_000;
const GIVE_UP_AFTER_MS = 30_000;

interface Refusal {
  code: number;
  message: string;
}

export class RoomConnection {
  #socket: WebSocket | null = null;
  #closed = false;
  #everJoined = false;

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

  send(frame: ClientFrame): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(frame));
  }

  sendBinary(bytes: Uint8Array): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(bytes);
  }

  /** Closes for good (the visitor left, or the room said the call ended): no joining again. */
  close(): void {
    this.#closed = true;
    this.#socket?.close(1000);
    this.#socket = null;
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
        if (event.data instanceof ArrayBuffer) return this.on.audio(event.data);
        const frame = parseFrame(event.data);
        if (!frame) return;
        if (frame.type === 'joined') {
          joined = true;
          this.on.joined(frame, this.#everJoined);
          this.#everJoined = true;
          resolve(null);
        } else if (frame.type === 'error' && !joined) {
          refusal = frame.message;
        } else {
          this.on.frame(frame);
        }
      });
      socket.addEventListener('close', (event) => {
        if (this.#socket === socket) this.#socket = null;
        if (!joined) return resolve({ code: event.code, message: refusal || closeMessage(event.code) });
        if (this.#closed) return;
        if (JOIN_AGAIN.has(event.code)) void this.#joinAgain();
        else this.#lose(event.code === RoomCloseCode.ended ? 'ended' : 'connection lost', event.code !== RoomCloseCode.ended && event.code !== 1000);
      });
    });
  }

  /**
   * Tries again after up to 0.25 s, then waits up to twice as long each time (at most 2 s) for up to 30 s.
   * The visitor is told from the second try on. A room that says the call ended, or refuses, ends the call.
   */
  async #joinAgain(): Promise<void> {
    const started = this.timers.now();
    for (let attempt = 0; ; attempt++) {
      // Half the wait, plus up to as much again at random: visitors of one restarted instance spread out.
      const wait = Math.min(FIRST_WAIT_MS * 2 ** attempt, LONGEST_WAIT_MS);
      await new Promise((resolve) => this.timers.setTimeout(() => resolve(undefined), wait / 2 + Math.random() * (wait / 2)));
      if (this.#closed) return;
      if (attempt === 1) this.on.notice('reconnecting');
      const refused = await this.#connect();
      if (this.#closed) return;
      if (!refused) return attempt >= 1 ? this.on.notice('reconnected') : undefined;
      if (refused.code === RoomCloseCode.ended) return this.#lose('ended', false);
      if (!JOIN_AGAIN.has(refused.code) || this.timers.now() - started > GIVE_UP_AFTER_MS) return this.#lose('connection lost', true);
    }
  }

  #lose(reason: string, failed: boolean): void {
    this.#closed = true;
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
