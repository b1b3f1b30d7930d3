// Who is in a room and how what the room says reaches them: the participants by id, each with its
// connection and meeting token, and sending to one or all through the bound on unsent output.
import type { RawData } from 'ws';
import type { Participant, ServerFrame } from '../../../protocol/room.js';
import type { ServiceDeps } from '../../platform/context.js';
import { sendBounded } from './unsent-output.js';

/**
 * What the room needs of a participant's connection: a WebSocket here, or a RelayedSocket standing for
 * one connected to another instance.
 */
export interface RoomSocket {
  readonly readyState: number;
  readonly OPEN: number;
  /** Unsent output (a WebSocket's): past a bound, a participant that stopped reading is dropped (unsent-output.ts). */
  readonly bufferedAmount?: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  /** Closed for flooding where it was read (a relayed one, by the instance it reached): the visitor left for good. */
  readonly closedForFlooding?: boolean;
  /** Drops the connection at once, without the closing handshake (a WebSocket has it; a relayed one closes). */
  terminate?(): void;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'message', listener: (data: RawData | string, isBinary: boolean) => void): unknown;
}

export interface Member {
  participant: Participant;
  socket: RoomSocket;
  /** The meeting token it joined with: one live connection per token (a newer one replaces it). */
  token: string;
}

/** The room's participants by id (the PAL is not one of them), and delivery to them. */
export class RoomMembers extends Map<string, Member> {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly conversationId: string,
  ) {
    super();
  }

  /** Whether a visitor (not only operators) is in the room. */
  hasVisitor(): boolean {
    return [...this.values()].some((m) => m.participant.role === 'visitor');
  }

  broadcastBinary(bytes: Uint8Array): void {
    for (const member of [...this.values()]) this.deliver(member, bytes);
  }

  broadcast(frame: ServerFrame, exceptId?: string): void {
    const text = JSON.stringify(frame);
    for (const [id, member] of [...this]) if (id !== exceptId) this.deliver(member, text);
  }

  sendTo(member: Member, frame: ServerFrame): void {
    this.deliver(member, JSON.stringify(frame));
  }

  /** Sends to a participant still reading; one that stopped (its unsent output past the bound) is dropped. */
  deliver(member: Member, data: string | Uint8Array): void {
    sendBounded(member.socket, data, this.deps.metrics, () =>
      this.deps.log.info('a participant stopped reading; its connection is dropped', {
        conversation_id: this.conversationId,
        participant_id: member.participant.participant_id,
      }),
    );
  }
}
