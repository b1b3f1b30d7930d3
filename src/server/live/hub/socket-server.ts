// WebSocket upgrades at /rooms/{conversation_id}: the first frame must be `join` with the
// conversation's meeting_token (never in the URL); anything else is refused with a RoomCloseCode.
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Clock } from '../../platform/time.js';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ClientFrame, RoomCloseCode, type ServerFrame } from '../../../protocol/room.js';
import { SHUTTING_DOWN, type ServiceDeps } from '../../platform/context.js';
import { connectionGuardOf } from '../../platform/http/connection-guard.js';
import { verifyMeetingToken } from '../../providers/conferencing/meeting-token.js';
import { loadLiveConversation } from '../../resources/conversations/live-conversation.js';
import type { RoomHub } from './hub.js';
import { JoinBacklog } from '../room/join-backlog.js';
import { forwardedClient } from '../../platform/net/forwarded-for.js';

export const ROOM_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ROOM_PATH = /^\/rooms\/([A-Za-z0-9_-]{1,64})\/?$/;
export const JOIN_TIMEOUT_MS = 10_000;
const MAX_FRAME_BYTES = 64 * 1024;

export function attachRoomServer(server: Server, deps: ServiceDeps, hub: RoomHub): () => Promise<void> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const guard = connectionGuardOf(server);
  // Set once the rooms have stopped: upgrades are refused from then on (see the stop below).
  let stopped = false;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = ROOM_PATH.exec(new URL(request.url ?? '/', 'http://room').pathname);
    // Rooms are the only upgrades: any other would be held open by nobody.
    if (!match) return refuseUpgrade(deps.clock, socket, 404, { error: 'not_found: no WebSocket here' });
    // A draining instance opens no room: a balancer tries the join on another instance (retry-on 503).
    if (deps.lifecycle.draining || stopped) return refuseUpgrade(deps.clock, socket, 503, { error: SHUTTING_DOWN }, { 'Retry-After': '1' });
    // An address may keep only so many upgrades waiting for their join; the rest are refused at once.
    let ws: WebSocket | undefined;
    const pending = guard?.admitUpgrade(upgradeAddress(request, deps.config.trustProxy), () => (ws ? ws.terminate() : socket.destroy()));
    if (pending === null) {
      return refuseUpgrade(
        deps.clock,
        socket,
        429,
        { error: 'too_many_upgrades: this address has too many connections waiting to join' },
        { 'Retry-After': String(JOIN_TIMEOUT_MS / 1000) },
      );
    }
    socket.once('close', () => pending?.release());
    wss.handleUpgrade(request, socket, head, (opened) => {
      ws = opened;
      // ws reports protocol violations (oversize, invalid UTF-8, unmasked frames, unknown opcodes) as
      // 'error' and closes with the matching code (1009, 1007, 1002); without a listener it would throw.
      opened.on('error', (error) => deps.log.info('room socket refused a frame', { conversation_id: match[1]!, error: error.message }));
      opened.once('message', () => pending?.release());
      awaitJoin(opened, match[1]!, deps, hub);
    });
  };
  server.on('upgrade', onUpgrade);
  return async () => {
    // The listener stays until the server closes, refusing: an upgrade nobody answers (the connection
    // guard listens too) would hold the drain open until its deadline.
    stopped = true;
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}

function refuse(ws: WebSocket, code: number, errorCode: string, message: string): void {
  const frame: ServerFrame = { type: 'error', code: errorCode, message };
  ws.send(JSON.stringify(frame));
  ws.close(code, errorCode);
}

/** Answers an upgrade that will not be taken with a plain HTTP response, and closes its connection. */
function refuseUpgrade(
  clock: Clock,
  socket: Duplex,
  status: 404 | 429 | 503,
  body: { error: string },
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  // Closed once the answer is handed to the system, and a client that does not read it is not waited for.
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy());
  clock.setTimeout(() => socket.destroy(), 1000).unref();
}

/** The upgrading client's address, as client-address.ts reads it for requests. */
function upgradeAddress(request: IncomingMessage, trustProxy: boolean): string {
  return (trustProxy ? forwardedClient(request.headers['x-forwarded-for']) : null) ?? request.socket.remoteAddress ?? 'unknown';
}

function awaitJoin(ws: WebSocket, conversationId: string, deps: ServiceDeps, hub: RoomHub): void {
  // A socket that never joined is not waited for through a close handshake (ws waits up to 30 s for
  // the client's close frame): it is told why, and its connection is ended.
  const timer = deps.clock.setTimeout(() => {
    refuse(ws, RoomCloseCode.invalidToken, 'join_timeout', 'send a join frame with the meeting token first');
    ws.terminate();
  }, JOIN_TIMEOUT_MS);
  // Frames that arrive while the join is checked are kept for the room, in order, up to a bound; the
  // room charges them to the participant's budget when it reads them.
  const backlog = new JoinBacklog();
  let joining = false;
  const onMessage = (data: RawData, isBinary: boolean) => {
    if (joining) {
      if (!backlog.push(data, isBinary)) deps.metrics.roomInputDropped.inc({ kind: 'backlog' });
      return;
    }
    const text = isBinary ? null : data.toString();
    joining = true;
    deps.clock.clearTimeout(timer);
    void join(ws, conversationId, text, deps, hub, backlog)
      .catch((error: unknown) => {
        deps.log.error('room join failed', {
          conversation_id: conversationId,
          error: error instanceof Error ? error.message : String(error),
        });
        if (ws.readyState === ws.OPEN) refuse(ws, 1011, 'internal_error', 'the room could not be joined');
      })
      .finally(() => ws.off('message', onMessage));
  };
  ws.on('message', onMessage);
  ws.once('close', () => deps.clock.clearTimeout(timer));
}

async function join(
  ws: WebSocket,
  conversationId: string,
  text: string | null,
  deps: ServiceDeps,
  hub: RoomHub,
  backlog: JoinBacklog,
): Promise<void> {
  let frame: ClientFrame | undefined;
  try {
    const parsed = ClientFrame.safeParse(text === null ? null : JSON.parse(text));
    if (parsed.success) frame = parsed.data;
  } catch {
    /* not JSON */
  }
  if (!frame || frame.type !== 'join') return refuse(ws, RoomCloseCode.badFrame, 'join_required', 'the first frame must be join');
  const role = verifyMeetingToken(deps.secrets, conversationId, frame.meeting_token, deps.clock.now());
  if (!role) return refuse(ws, RoomCloseCode.invalidToken, 'invalid_token', 'the meeting token is not valid for this room');
  const conv = await loadLiveConversation(deps.db, conversationId);
  // A Daily conversation's PAL room admits its runner's bridge only; a bridge token opens nothing else.
  if (!conv || (conv.provider === 'daily') !== (role === 'bridge'))
    return refuse(ws, RoomCloseCode.notFound, 'not_found', 'no local room for this conversation');
  if (conv.status !== 'active') return refuse(ws, RoomCloseCode.ended, 'conversation_ended', 'the conversation has ended');
  // Here, or relayed to the instance holding the room.
  await hub.join(
    ws,
    conv,
    {
      // The bridge stands for the Daily room's visitor: the PAL hears and answers it as one.
      role: role === 'bridge' ? 'visitor' : role,
      userName: frame.user_name,
      token: frame.meeting_token,
      textMode: frame.text_mode === true,
      timeZone: frame.time_zone,
      locale: frame.locale,
      faceReady: frame.face_ready === true,
      speechRecognition: frame.speech_recognition,
    },
    backlog,
  );
}
