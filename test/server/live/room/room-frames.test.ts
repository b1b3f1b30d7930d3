// Issue 34: every frame a participant sends costs something. Binary frames that carry no audio (too
// short, odd, reserved bytes set, no samples, the PAL's kind) are charged and dropped as malformed, told
// once a while, and a flood of them closes the connection; a socket that stops reading is dropped;
// frames sent while the join is checked are bounded and charged to the same budget; a recording covers
// only time with a visitor in the room. On the budget's and the service's clocks, moved by the test.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { AUDIO_HEADER_BYTES, AudioFrameKind, RoomCloseCode, type ServerFrame } from '../../../../src/protocol/room.js';
import { ShutdownReasons } from '../../../../src/protocol/callbacks.js';
import { DROP_WINDOW_MS, PARTICIPANT_BUDGET, ParticipantBudget } from '../../../../src/server/live/room/participant-budget.js';
import { JOIN_BACKLOG_LIMITS, JoinBacklog } from '../../../../src/server/live/room/join-backlog.js';
import { MAX_UNSENT_BYTES } from '../../../../src/server/live/room/unsent-output.js';
import { RelayedSocket } from '../../../../src/server/live/cluster/relayed-socket.js';
import { hubFor } from '../../../../src/server/live/hub/hub.js';
import { loadLiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import type { Room } from '../../../../src/server/live/room/room.js';
import type { RoomSocket } from '../../../../src/server/live/room/members.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertFace, insertPal } from '../../../helpers/live-fixtures.js';
import { systemClock } from '../../../../src/server/platform/time.js';

/** A binary frame with these header fields and this many bytes after the header. */
function binary(f: { kind?: number; reserved?: number; rate?: number; bytes: number }): Buffer {
  const out = Buffer.alloc(AUDIO_HEADER_BYTES + f.bytes);
  out.writeUInt8(f.kind ?? AudioFrameKind.microphone, 0);
  out.writeUInt16LE(f.reserved ?? 0, 2);
  out.writeUInt32LE(f.rate ?? 16_000, 4);
  return out;
}

const MALFORMED: Record<string, Buffer> = {
  'a 9-byte kind-2 frame (16 kHz, one odd byte)': Buffer.from('02000000803E000000', 'hex'),
  'an 8-byte kind-1 frame': binary({ kind: AudioFrameKind.palVoice, bytes: 0 }),
  'a microphone frame with reserved bytes set': binary({ reserved: 1, bytes: 640 }),
  'a microphone frame with zero samples': binary({ bytes: 0 }),
};
/** 20 ms of microphone audio at 16 kHz, as a browser sends it. */
const SPEECH = binary({ bytes: 640 });

describe('participant budget: binary frames that carry no audio', () => {
  for (const [name, frame] of Object.entries(MALFORMED)) {
    it(`${name} is charged, dropped as malformed and told once per window`, () => {
      const clock = { ms: 0 };
      const budget = new ParticipantBudget(() => clock.ms);
      assert.deepEqual(budget.admit(frame, true), { ok: false, kind: 'malformed', first: true, close: false });
      assert.deepEqual(budget.admit(frame, true), { ok: false, kind: 'malformed', first: false, close: false });
      // Each cost at least 20 ms of audio: after a second's worth, real speech finds the budget spent.
      for (let i = 2; i < PARTICIPANT_BUDGET.audioSeconds.burst / PARTICIPANT_BUDGET.minAudioSeconds; i++) budget.admit(frame, true);
      assert.deepEqual(budget.admit(SPEECH, true), { ok: false, kind: 'audio', first: true, close: false });
      clock.ms += 20;
      assert.deepEqual(budget.admit(SPEECH, true), { ok: true }, 'what refilled is there for speech again');
    });
  }

  it('a flood of them is closed at the 1000th drop of a window; after a quiet window the sender is told again', () => {
    const clock = { ms: 0 };
    const budget = new ParticipantBudget(() => clock.ms);
    const frames = Object.values(MALFORMED);
    const verdicts = Array.from({ length: PARTICIPANT_BUDGET.dropsToClose }, (_, i) => budget.admit(frames[i % frames.length]!, true));
    assert.ok(
      verdicts.every((v) => !v.ok),
      'none is handled',
    );
    assert.equal(verdicts.filter((v) => !v.ok && v.first).length, 1, 'told once');
    assert.equal(
      verdicts.findIndex((v) => !v.ok && v.close),
      PARTICIPANT_BUDGET.dropsToClose - 1,
      'closed at the last',
    );
    clock.ms += DROP_WINDOW_MS + 1;
    assert.deepEqual(budget.admit(frames[0]!, true), { ok: false, kind: 'malformed', first: true, close: false });
  });

  it('speech at real-time pace in 20 ms frames is never dropped', () => {
    const clock = { ms: 0 };
    const budget = new ParticipantBudget(() => clock.ms);
    for (let i = 0; i < 3000; i++) {
      clock.ms += 20;
      assert.deepEqual(budget.admit(SPEECH, true), { ok: true });
    }
  });
});

describe('join backlog', () => {
  it('keeps at most 64 frames or 256 KiB, and hands them off once', () => {
    const backlog = new JoinBacklog();
    const kept = Array.from({ length: 100 }, () => backlog.push('{"type":"app-message","data":{}}', false)).filter(Boolean).length;
    assert.equal(kept, JOIN_BACKLOG_LIMITS.frames);
    const big = new JoinBacklog();
    const chunk = Buffer.alloc(60 * 1024);
    assert.equal(Array.from({ length: 10 }, () => big.push(chunk, true)).filter(Boolean).length, 4, '4 × 60 KiB fit in 256 KiB');
    assert.equal(backlog.handOff().length, JOIN_BACKLOG_LIMITS.frames);
    assert.equal(backlog.handOff().length, 0, 'read once');
  });
});

/** A participant's socket that the test drives: what it is sent is kept, and it reads nothing unless told. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<string | Uint8Array> = [];
  closedWith: number | null = null;
  terminated = false;
  send(data: string | Uint8Array): void {
    this.sent.push(data);
  }
  close(code: number): void {
    if (this.readyState !== 1) return;
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  errors(code: string): ServerFrame[] {
    return this.sent
      .filter((d): d is string => typeof d === 'string')
      .map((d) => JSON.parse(d) as ServerFrame)
      .filter((f) => f.type === 'error' && f.code === code);
  }
  frame(data: string | Buffer): void {
    this.emit('message', data, typeof data !== 'string');
  }
}

describe('room frames on the service clock', () => {
  let t: TestService;
  let palId: string;
  const clock = { ms: Date.now() };
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' }, { clock: { ...systemClock, now: () => new Date(clock.ms) } });
    palId = await insertPal(t, { pipelineMode: 'echo', faceId: await insertFace(t) });
  });
  after(() => t.close());

  async function metric(line: string): Promise<number> {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found ? Number(found.split(' ').pop()) : 0;
  }

  async function room(properties: Record<string, unknown> = {}) {
    const handle = await insertConversation(t, { palId, properties });
    const conv = (await loadLiveConversation(t.service.deps.db, handle.conversationId))!;
    return { ...handle, room: hubFor(t.service.deps).open(conv) };
  }

  async function admit(room: Room, token: string, backlog = new JoinBacklog()): Promise<FakeSocket> {
    const socket = new FakeSocket();
    await room.admit(socket as unknown as RoomSocket, 'visitor', { token, userName: 'Mallory', textMode: true }, backlog);
    return socket;
  }

  const row = (conversationId: string) =>
    t.service.deps.db
      .selectFrom('conversations')
      .select(['status', 'shutdown_reason'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
  const recording = (conversationId: string) =>
    t.service.deps.db
      .selectFrom('recordings')
      .select(['status', 'duration'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();

  it('a flood of frames with no audio is dropped, answered with bad_frame once and closed with 4429; alone, the visitor ends the call, and its recording with it', async () => {
    const { room: r, token, conversationId } = await room({ enable_recording: true });
    const socket = await admit(r, token);
    const before = await metric('palkit_room_input_dropped_total{kind="malformed"}');
    clock.ms += 600;
    const frames = Object.values(MALFORMED);
    for (let i = 0; i < 5000 && socket.readyState === socket.OPEN; i++) socket.frame(frames[i % frames.length]!);
    assert.equal(socket.closedWith, RoomCloseCode.flooding);
    assert.equal(socket.errors('bad_frame').length, 1, 'told once, not once per frame');
    assert.equal(socket.errors('flooding').length, 1);
    assert.equal((await metric('palkit_room_input_dropped_total{kind="malformed"}')) - before, PARTICIPANT_BUDGET.dropsToClose);
    // The visitor thrown out does not come back (its page does not join again after 4429): the call ends now.
    clock.ms += 60_000;
    await r.shutdown(ShutdownReasons.endEndpointHit); // the end already under way
    assert.deepEqual(await row(conversationId), { status: 'ended', shutdown_reason: ShutdownReasons.participantLeftTimeout });
    assert.deepEqual(await recording(conversationId), { status: 'stored', duration: 0.6 });
  });

  it('a relayed visitor closed for flooding on its instance, alone: the conversation ends at once', async () => {
    const { room: r, token, conversationId } = await room();
    const socket = new RelayedSocket({ send() {}, close() {} });
    await r.admit(socket, 'visitor', { token, userName: 'Mallory', textMode: true });
    socket.closed(true);
    await new Promise((resolve) => setImmediate(resolve));
    await r.shutdown(ShutdownReasons.endEndpointHit); // the end already under way
    assert.deepEqual(await row(conversationId), { status: 'ended', shutdown_reason: ShutdownReasons.participantLeftTimeout });
  });

  it('a socket that stopped reading is dropped once its unsent output passes 1 MiB, and counted', async () => {
    const { room: r, token } = await room();
    const socket = await admit(r, token);
    const before = await metric('palkit_room_sockets_dropped_unread_total');
    socket.bufferedAmount = MAX_UNSENT_BYTES;
    socket.frame('{not json');
    assert.equal(socket.terminated, false, 'at the bound it is still sent to');
    const sent = socket.sent.length;
    socket.bufferedAmount = MAX_UNSENT_BYTES + 1;
    socket.frame('{not json either');
    assert.equal(socket.terminated, true);
    assert.equal(socket.sent.length, sent, 'nothing more is queued for it');
    assert.equal((await metric('palkit_room_sockets_dropped_unread_total')) - before, 1);
  });

  it("frames sent while the join is checked are charged to the token's budget; joining again neither replays nor refills it", async () => {
    const { room: r, token } = await room();
    const chat = (i: number) => JSON.stringify({ type: 'app-message', data: { note: i } });
    const backlog = new JoinBacklog();
    for (let i = 0; i < 100; i++) backlog.push(chat(i), false);
    const dropped = () => metric('palkit_room_input_dropped_total{kind="frame"}');
    const before = await dropped();
    const first = await admit(r, token, backlog);
    assert.equal(
      (await dropped()) - before,
      JOIN_BACKLOG_LIMITS.frames - PARTICIPANT_BUDGET.frames.burst,
      'the backlog spent the burst; the rest was dropped',
    );
    assert.equal(backlog.handOff().length, 0, 'the backlog is read once');
    // The same token joins again (a reload) with another backlog: the budget is the one already spent.
    const again = new JoinBacklog();
    for (let i = 0; i < 10; i++) again.push(chat(i), false);
    await admit(r, token, again);
    assert.equal(first.closedWith, RoomCloseCode.replaced);
    assert.equal(
      (await dropped()) - before,
      JOIN_BACKLOG_LIMITS.frames - PARTICIPANT_BUDGET.frames.burst + 10,
      'nothing refilled on joining again',
    );
  });

  it('a recording covers only time with a visitor in the room', async () => {
    const { room: r, token, conversationId } = await room({ enable_recording: true });
    const first = await admit(r, token);
    clock.ms += 1000;
    first.close(1000);
    clock.ms += 60_000; // nobody in the room: the recording stands still
    await admit(r, token);
    clock.ms += 500;
    await r.shutdown(ShutdownReasons.endEndpointHit);
    assert.deepEqual(await recording(conversationId), { status: 'stored', duration: 1.5 });
  });
});
