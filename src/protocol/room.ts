// Wire frames of palkit's local conversation room (WebSocket at the conversation_url, ws/wss scheme).
// The interactions protocol travels inside `app-message` frames exactly as it would over Daily.
import * as z from 'zod/mini';
import { VISEMES } from './visemes.js';

export const ParticipantRole = z.enum(['pal', 'visitor', 'operator']);
export type ParticipantRole = z.infer<typeof ParticipantRole>;

export const Participant = z.object({
  participant_id: z.string(),
  user_name: z.string(),
  role: ParticipantRole,
  /** For the PAL: what to show as its video tile (the face's thumbnail video or image). */
  video_url: z.optional(z.nullable(z.string())),
  image_url: z.optional(z.nullable(z.string())),
  /** For the PAL: a face the elements draw themselves (e.g. `palkit:ada`, drawn by src/face-drawing/ada.ts), lips following the visemes. */
  face_model: z.optional(z.nullable(z.string())),
  /** For the PAL: a trained face's rig (the URL of its rig.json, see faces/rig.ts), which the elements draw. */
  face_rig_url: z.optional(z.string()),
});
export type Participant = z.infer<typeof Participant>;

/**
 * One turn of the conversation so far, as the room kept it: `assistant` turns are the PAL's (what was
 * heard of them when cut off: `interrupted`), `user` turns the visitors'. `timestamp`: epoch seconds
 * when the turn began.
 */
export const RoomTranscriptEntry = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  timestamp: z.number(),
  inference_id: z.optional(z.string()),
  interrupted: z.optional(z.boolean()),
});
export type RoomTranscriptEntry = z.infer<typeof RoomTranscriptEntry>;

/** The most turns a `joined` frame carries (the latest ones). */
export const ROOM_HISTORY_LIMIT = 500;

/** A duration measured in the page, in ms: finite, never negative, at most a minute (a longer wait is no latency). */
const LatencyMs = z.number().check(z.gte(0), z.lte(60_000));

/**
 * What the visitor heard of one PAL reply, measured in their page (issue 26): from the end of their turn
 * (`turn_ended_at`, ms since the Unix epoch on the page's clock) to the first audible PAL sample at the
 * audio output (`heard_ms`) and the first mouth movement drawn (`mouth_ms`); `lip_sync_ms` is the p95 of
 * |mouth drawn − its audio at the output| over the reply. A figure the page cannot take is left out, never 0.
 */
export const TurnLatencyFrame = z.object({
  type: z.literal('turn-latency'),
  inference_id: z.string().check(z.minLength(1), z.maxLength(128)),
  input: z.enum(['text', 'speech']),
  turn_ended_at: z.number().check(z.gte(0), z.lte(8.64e15)),
  heard_ms: z.optional(LatencyMs),
  mouth_ms: z.optional(LatencyMs),
  lip_sync_ms: z.optional(z.number().check(z.gte(0), z.lte(10_000))),
});
export type TurnLatencyFrame = z.infer<typeof TurnLatencyFrame>;

/** Frames a client sends. The first frame must be `join`; the meeting token never appears in a URL. */
export const ClientFrame = z.discriminatedUnion('type', [
  /**
   * `text_mode`: the visitor joins in text mode (see `text-mode`), so the PAL writes even its greeting.
   * `time_zone` (the page's IANA zone, from `Intl`) and `locale` (the page's language tag): the PAL says
   * dates and times as the visitor reads a clock, in the visitor's zone. Unknown values are ignored.
   * `face_ready`: this page draws the PAL's face and sends `face-ready` once it is shown, so the PAL's first
   * line waits for it (at most a few seconds); a page without it is greeted at once, as before.
   * `speech_recognition`: whether this browser turns speech into words. `false` where it cannot: unless the
   * service transcribes, the PAL cannot hear the visitor, so it offers no speech (its greeting invites typing).
   */
  z.object({
    type: z.literal('join'),
    meeting_token: z.string(),
    user_name: z.optional(z.string()),
    text_mode: z.optional(z.boolean()),
    time_zone: z.optional(z.string()),
    locale: z.optional(z.string()),
    face_ready: z.optional(z.boolean()),
    speech_recognition: z.optional(z.boolean()),
  }),
  z.object({ type: z.literal('app-message'), data: z.unknown(), to: z.optional(z.string()) }),
  /** This page's speech recognition stopped working (e.g. its service refused): unless the service transcribes, the PAL cannot hear the visitor. */
  z.object({ type: z.literal('hearing'), speech_recognition: z.boolean() }),
  /** Text mode on or off: the visitor reads and types, so the PAL writes its replies at once instead of speaking them. */
  z.object({ type: z.literal('text-mode'), on: z.boolean() }),
  /** `end`: the visitor ended the call (End), so the conversation ends now rather than after participant_left_timeout. */
  z.object({ type: z.literal('leave'), end: z.optional(z.boolean()) }),
  TurnLatencyFrame,
  /**
   * The PAL's face is shown on this page (the `<video>` showing the face's track has its first frame), or the
   * page gave up on drawing it and shows the still image: the PAL's held first line may begin. Sent at most once per page.
   */
  z.object({ type: z.literal('face-ready') }),
  /**
   * Is the room there? It answers `pong` with the same `n` once it has read every frame sent before: a page
   * that hears nothing from the room for a second shows "reconnecting" (a socket may stay open to an instance
   * whose room's holder died), and what it sent before an answered ping need not be sent again after a move.
   */
  z.object({ type: z.literal('ping'), n: z.optional(z.number()) }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Frames the room sends. */
export const ServerFrame = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('joined'),
    participant_id: z.string(),
    conversation_id: z.string(),
    participants: z.array(Participant),
    /** Whether the service transcribes the microphone audio it receives (else the client recognises speech itself, where it can). */
    transcribes: z.optional(z.boolean()),
    /** The language the owner fixed for the PAL (BCP-47), for recognition on the visitor's side; absent when none is, so the page keeps to the visitor's own. */
    language: z.optional(z.string()),
    /** The PAL perceives: post a JPEG of the camera to `frames_url` (Bearer meeting token) every `interval_ms`. */
    perception: z.optional(z.object({ frames_url: z.string(), interval_ms: z.number() })),
    /** The call is recorded (the elements show an indicator). */
    recording: z.optional(z.boolean()),
    /**
     * The conversation so far, oldest first (at most ROOM_HISTORY_LIMIT turns, the latest), so that a
     * visitor who joins again (a reload) sees what was said. A reply being spoken comes as it goes on.
     */
    transcript: z.optional(z.array(RoomTranscriptEntry)),
  }),
  z.object({ type: z.literal('participant-joined'), participant: Participant }),
  z.object({ type: z.literal('participant-left'), participant_id: z.string() }),
  z.object({ type: z.literal('app-message'), from: z.string(), data: z.unknown() }),
  /** The room shut down; `reason` is one of the spec's shutdown reasons. */
  z.object({ type: z.literal('ended'), reason: z.string() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  /** Drop PAL audio that was sent but has not played yet (the PAL was interrupted). */
  z.object({ type: z.literal('audio-flush') }),
  /** Something the visitor should know about the call (e.g. `voice_unavailable`, `hearing_unavailable`); the call goes on. */
  z.object({ type: z.literal('notice'), code: z.string(), message: z.string() }),
  /** The answer to a `ping` (its `n`): the room read every frame sent before it. */
  z.object({ type: z.literal('pong'), n: z.optional(z.number()) }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/**
 * Binary frames carry audio, PCM 16-bit little-endian mono, behind an 8-byte header:
 *   byte 0: kind (AudioFrameKind); byte 1: viseme index (PAL audio: the mouth shape for this slice, see
 *   visemes.ts; 0 otherwise); bytes 2–3: 0; bytes 4–7: sample rate in Hz (uint32 LE); bytes 8…: samples.
 * The room sends the PAL's voice in real time (slices of about 40 ms, a little ahead of playback); a
 * client sends its microphone the same way. `audio-flush` tells clients to drop PAL audio not yet played.
 */
export const AudioFrameKind = { palVoice: 1, microphone: 2 } as const;
export const AUDIO_HEADER_BYTES = 8;
/** Sample rates an audio frame may carry, in Hz. */
export const AUDIO_RATE_RANGE = { min: 8000, max: 96000 } as const;

export interface AudioFrame {
  kind: number;
  viseme: number;
  sampleRate: number;
  samples: Int16Array;
}

/** Whether this machine keeps 16-bit samples little-endian, as the wire does (every platform palkit runs on). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeAudioFrame(frame: AudioFrame): Uint8Array {
  const bytes = new Uint8Array(AUDIO_HEADER_BYTES + frame.samples.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, frame.kind);
  view.setUint8(1, frame.viseme);
  view.setUint32(4, frame.sampleRate, true);
  // The room encodes 25 slices a second per listener: one block copy, not a call per sample.
  if (LITTLE_ENDIAN) new Int16Array(bytes.buffer, AUDIO_HEADER_BYTES, frame.samples.length).set(frame.samples);
  else for (let i = 0; i < frame.samples.length; i++) view.setInt16(AUDIO_HEADER_BYTES + i * 2, frame.samples[i]!, true);
  return bytes;
}

/**
 * The audio frame in these bytes, or null when they are not one: too short, odd length, an unknown kind,
 * a viseme index past the table (or any on microphone audio), reserved bytes set, or a rate out of range.
 */
export function decodeAudioFrame(data: ArrayBuffer | ArrayBufferView): AudioFrame | null {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.byteLength < AUDIO_HEADER_BYTES || (bytes.byteLength - AUDIO_HEADER_BYTES) % 2 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = view.getUint8(0);
  const viseme = view.getUint8(1);
  if (kind !== AudioFrameKind.palVoice && kind !== AudioFrameKind.microphone) return null;
  if (kind === AudioFrameKind.palVoice ? viseme >= VISEMES.length : viseme !== 0) return null;
  if (view.getUint16(2, true) !== 0) return null;
  const sampleRate = view.getUint32(4, true);
  if (sampleRate < AUDIO_RATE_RANGE.min || sampleRate > AUDIO_RATE_RANGE.max) return null;
  const samples = new Int16Array((bytes.byteLength - AUDIO_HEADER_BYTES) / 2);
  // A copy (the samples outlive the socket's buffer), in one block: the bytes may sit at an odd offset.
  if (LITTLE_ENDIAN) new Uint8Array(samples.buffer).set(bytes.subarray(AUDIO_HEADER_BYTES));
  else for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(AUDIO_HEADER_BYTES + i * 2, true);
  return { kind, viseme, sampleRate, samples };
}

/** Close codes the room uses (4000–4999 are application codes). */
export const RoomCloseCode = { invalidToken: 4401, notFound: 4404, replaced: 4409, ended: 4410, badFrame: 4400, flooding: 4429 } as const;

/** ws(s) address of the room behind an http(s) conversation_url. */
export function roomSocketUrl(conversationUrl: string): string {
  const url = new URL(conversationUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
