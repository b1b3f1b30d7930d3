// Fixtures for live-room tests: rows inserted directly (faces, PALs, skills, conversations), signed
// meeting tokens, a WebSocket room client that records every frame, and a loopback callback receiver.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { decodeAudioFrame, roomSocketUrl, type AudioFrame, type ServerFrame } from '../../src/protocol/room.js';
import { signMeetingToken, type TokenRole } from '../../src/server/providers/conferencing/meeting-token.js';
import { newId } from '../../src/server/platform/ids.js';
import type { TestService } from './service.js';
import { waitFor } from './wait-for.js';

export async function insertFace(
  t: TestService,
  face: { ownerId?: number; videoUrl?: string | null; imageUrl?: string | null; rigUrl?: string } = {},
): Promise<string> {
  const faceId = newId('r');
  await t.service.deps.db
    .insertInto('faces')
    .values({
      face_id: faceId,
      owner_id: face.ownerId ?? 1,
      face_name: 'Test face',
      train_video_url: null,
      callback_url: null,
      status: 'completed',
      error_message: null,
      thumbnail_video_url: face.videoUrl ?? null,
      thumbnail_image_url: face.imageUrl ?? null,
      model_name: null,
      // Where training leaves a trained face's rig (faces/training.ts).
      ...(face.rigUrl
        ? {
            training_details: JSON.stringify({
              rig: { url: face.rigUrl, media_ids: [], bytes: 0, idle_frames: 1, footage: [], warped: [] },
            }),
          }
        : {}),
    })
    .execute();
  return faceId;
}

export interface PalFixture {
  ownerId?: number;
  name?: string;
  pipelineMode?: 'full' | 'echo';
  faceId?: string | null;
  definition?: Record<string, unknown>;
  /** Attach magic_canvas with this config. */
  canvas?: Record<string, unknown>;
}

export async function insertPal(t: TestService, pal: PalFixture = {}): Promise<string> {
  const palId = newId('p');
  const { db } = t.service.deps;
  await db
    .insertInto('pals')
    .values({
      pal_id: palId,
      owner_id: pal.ownerId ?? 1,
      pal_name: pal.name ?? 'Ava',
      pipeline_mode: pal.pipelineMode ?? 'full',
      default_face_id: pal.faceId ?? null,
      definition: JSON.stringify({ system_prompt: 'You are Ava.', ...(pal.definition ?? {}) }),
    })
    .execute();
  if (pal.canvas)
    await db
      .insertInto('pal_skills')
      .values({ pal_id: palId, skill_id: 'magic_canvas', config: JSON.stringify(pal.canvas) })
      .execute();
  return palId;
}

export interface ConversationFixture {
  palId: string;
  ownerId?: number;
  faceId?: string | null;
  callbackUrl?: string | null;
  customGreeting?: string | null;
  conversationalContext?: string | null;
  memoryStores?: string[];
  properties?: Record<string, unknown>;
  /** When it was created (default: the database's now()); on a test clock, its now(), so deadlines count from it. */
  createdAt?: Date;
}

export interface ConversationHandle {
  conversationId: string;
  conversationUrl: string;
  token: string;
}

export async function insertConversation(t: TestService, c: ConversationFixture): Promise<ConversationHandle> {
  const conversationId = newId('c');
  const conversationUrl = `${t.url}/rooms/${conversationId}`;
  await t.service.deps.db
    .insertInto('conversations')
    .values({
      conversation_id: conversationId,
      owner_id: c.ownerId ?? 1,
      pal_id: c.palId,
      face_id: c.faceId ?? null,
      deployment_id: null,
      conversation_name: 'Test conversation',
      provider: 'local',
      conversation_url: conversationUrl,
      callback_url: c.callbackUrl ?? null,
      conversational_context: c.conversationalContext ?? null,
      custom_greeting: c.customGreeting ?? null,
      memory_stores: JSON.stringify(c.memoryStores ?? []),
      properties: JSON.stringify(c.properties ?? {}),
      visitor_key: null,
      shutdown_reason: null,
      ...(c.createdAt ? { created_at: c.createdAt } : {}),
    })
    .execute();
  return { conversationId, conversationUrl, token: token(t, conversationId) };
}

export function token(t: TestService, conversationId: string, options: { expiresAt?: Date; role?: TokenRole } = {}): string {
  return signMeetingToken(
    t.service.deps.secrets,
    conversationId,
    options.expiresAt ?? new Date(Date.now() + 3600_000),
    options.role ?? 'visitor',
  );
}

type AppMessage = {
  message_type?: string;
  event_type: string;
  properties: Record<string, any>;
  inference_id?: string;
  seq?: number;
  turn_idx?: number;
  conversation_id?: string;
};

/** A participant: connects, records frames, waits for what a test expects. */
export class RoomClient {
  readonly frames: ServerFrame[] = [];
  /** The PAL's voice as received: audio frames, with when each arrived. */
  readonly audio: Array<AudioFrame & { receivedAt: number }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        const frame = decodeAudioFrame(data as Buffer);
        if (!frame) throw new Error('the room sent a binary frame that is not an audio frame');
        this.audio.push({ ...frame, receivedAt: performance.now() });
      } else {
        this.frames.push(JSON.parse(data.toString()) as ServerFrame);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const w of this.waiters.splice(0)) w();
      }),
    );
  }

  /** Opens the socket without joining. */
  static async open(conversationUrl: string): Promise<RoomClient> {
    const socket = new WebSocket(roomSocketUrl(conversationUrl));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RoomClient(socket);
  }

  /** Opens, joins and waits for the `joined` frame. */
  static async join(
    conversationUrl: string,
    meetingToken: string,
    userName?: string,
    page: { time_zone?: string; locale?: string; speech_recognition?: boolean } = {},
  ): Promise<RoomClient> {
    const client = await RoomClient.open(conversationUrl);
    client.send({ type: 'join', meeting_token: meetingToken, ...(userName ? { user_name: userName } : {}), ...page });
    // A hang bound, not a speed bar: three joins side by side took 6.8 s on a 2-core machine with a suite beside them.
    await client.waitFor((f) => f.type === 'joined', 20_000);
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Sends an interactions-protocol message to the room. */
  say(eventType: string, properties: Record<string, unknown> = {}, to?: string): void {
    this.send({ type: 'app-message', data: { message_type: 'conversation', event_type: eventType, properties }, ...(to ? { to } : {}) });
  }

  get participantId(): string {
    const joined = this.frames.find((f) => f.type === 'joined');
    return joined && joined.type === 'joined' ? joined.participant_id : '';
  }

  /** Interactions-protocol messages received, in order. */
  messages(): AppMessage[] {
    return this.frames.flatMap((f) => (f.type === 'app-message' ? [f.data as AppMessage] : []));
  }

  events(eventType: string): AppMessage[] {
    return this.messages().filter((m) => m.event_type === eventType);
  }

  // The defaults are bounds that fail a lost frame, not measures: 15 s, as the gate keeps both cores busy.
  async waitFor(predicate: (frame: ServerFrame) => boolean, timeoutMs = 15_000): Promise<ServerFrame> {
    return this.until(() => this.frames.find(predicate), timeoutMs, 'frame');
  }

  /** Waits for the nth (1-based) message of this event type matching `predicate`. */
  async waitForEvent(
    eventType: string,
    predicate: (m: AppMessage) => boolean = () => true,
    timeoutMs = 15_000,
    nth = 1,
  ): Promise<AppMessage> {
    return this.until(() => this.events(eventType).filter(predicate)[nth - 1], timeoutMs, eventType);
  }

  async until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}; got ${JSON.stringify(this.frames.map((f) => (f.type === 'app-message' ? (f.data as AppMessage).event_type : f.type)))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** A loopback HTTP receiver for callbacks. */
export interface CallbackReceiver {
  url: string;
  bodies: Array<Record<string, any>>;
  waitFor(predicate: (bodies: Array<Record<string, any>>) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const bodies: Array<Record<string, any>> = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      try {
        bodies.push(JSON.parse(text) as Record<string, any>);
      } catch {
        bodies.push({ unparsable: text });
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    bodies,
    async waitFor(predicate, timeoutMs = 15_000) {
      await waitFor(() => predicate(bodies), {
        timeout: timeoutMs,
        interval: 25,
        what: () => `callbacks; got ${JSON.stringify(bodies.map((b) => b.event_type))}`,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
