// Conversation callbacks (the spec's Events section, plus Magic Canvas's `canvas.interaction`): the bodies
// the service POSTs to a conversation's callback_url and lists under `events` of the verbose read.
import * as z from 'zod/mini';

/** The spec's shutdown reasons (`internal error occurred at step x` carries a step, so the field stays a string). */
export const ShutdownReasons = {
  maxCallDuration: 'max_call_duration reached',
  participantLeftTimeout: 'participant_left_timeout reached',
  participantAbsentTimeout: 'participant_absent_timeout reached',
  botCouldNotJoin: 'bot_could_not_join_meeting_it_was_probably_ended',
  roomDeleted: 'daily_room_has_been_deleted',
  startupException: 'exception_encountered_during_conversation_startup',
  endEndpointHit: 'end_conversation_endpoint_hit',
} as const;

/** One turn of the transcript in `application.transcription_ready`. */
export const TranscriptEntry = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** Unix epoch seconds (float) when the turn began. */
  timestamp: z.number(),
  seconds_from_start: z.number(),
  duration: z.number(),
  /** Assistant turns only. */
  inference_id: z.optional(z.string()),
  /** User turns, when the speaker is known; never part of `content`. */
  participant_name: z.optional(z.string()),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** A recorded Magic Canvas interaction (the list item of GET …/canvas/interactions and the callback's properties). */
export const CanvasInteractionRecord = z.object({
  conversation_id: z.string(),
  interaction_id: z.string(),
  tool_call_id: z.string(),
  component: z.string(),
  component_version: z.string(),
  type: z.enum(['submit', 'skip', 'dismiss', 'clear', 'error', 'heartbeat']),
  value: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type CanvasInteractionRecord = z.infer<typeof CanvasInteractionRecord>;

const FaceOnly = z.object({ face_id: z.nullable(z.string()) });
const StorageProvider = z.enum(['s3', 'gcs', 'azure_blob']);

function callback<M extends string, E extends string, P extends z.ZodMiniType>(messageType: M, eventType: E, properties: P) {
  return z.object({
    conversation_id: z.string(),
    webhook_url: z.optional(z.string()),
    event_type: z.literal(eventType),
    message_type: z.literal(messageType),
    /** ISO 8601. */
    timestamp: z.string(),
    properties,
  });
}

export const PalJoinedCallback = callback('system', 'system.pal_joined', FaceOnly);
/** Legacy duplicate of `system.pal_joined` with an identical payload. */
export const ReplicaJoinedCallback = callback('system', 'system.replica_joined', FaceOnly);
export const ShutdownCallback = callback(
  'system',
  'system.shutdown',
  z.object({ face_id: z.nullable(z.string()), shutdown_reason: z.string() }),
);
export const TranscriptionReadyCallback = callback(
  'application',
  'application.transcription_ready',
  z.object({
    face_id: z.nullable(z.string()),
    transcript: z.array(TranscriptEntry),
    /** p50/p95 (ms) of what the visitor heard, measured in their page; only when a page reported any. */
    turn_latency: z.optional(
      z.object({
        turns: z.number(),
        heard_ms: z.optional(z.object({ count: z.number(), p50: z.number(), p95: z.number() })),
        mouth_ms: z.optional(z.object({ count: z.number(), p50: z.number(), p95: z.number() })),
        lip_sync_ms: z.optional(z.object({ count: z.number(), p50: z.number(), p95: z.number() })),
      }),
    ),
  }),
);
export const RecordingReadyCallback = callback(
  'application',
  'application.recording_ready',
  z.object({
    bucket_name: z.string(),
    s3_key: z.string(),
    duration: z.number(),
    storage_provider: StorageProvider,
    storage_uri: z.string(),
  }),
);
export const RecordingCopyFailedCallback = callback(
  'application',
  'application.recording_copy_failed',
  z.object({
    recording_id: z.string(),
    s3_key: z.string(),
    duration: z.number(),
    storage_provider: StorageProvider,
    error_code: z.string(),
    error_message: z.string(),
  }),
);
export const PerceptionAnalysisCallback = callback('application', 'application.perception_analysis', z.object({ analysis: z.string() }));
export const PostCallActionExecutedCallback = callback(
  'application',
  'application.post_call_action_executed',
  z.object({
    tool_id: z.string(),
    tool_name: z.string(),
    status: z.string(),
    request: z.object({ url: z.string(), method: z.string(), body: z.unknown() }),
    /** `http_status` 0: the address gave no HTTP answer (unreachable, refused, timed out); `body` says why. */
    response: z.object({ http_status: z.number(), body: z.unknown() }),
  }),
);
export const CanvasInteractionCallback = callback('canvas', 'canvas.interaction', CanvasInteractionRecord);
/** The visitor rated the conversation on the after-call screen (palkit's own callback, sent once). */
export const ConversationRatedCallback = callback(
  'application',
  'application.conversation_rated',
  z.object({ stars: z.number(), comment: z.nullable(z.string()), rated_at: z.string() }),
);

export const ConversationCallback = z.discriminatedUnion('event_type', [
  PalJoinedCallback,
  ReplicaJoinedCallback,
  ShutdownCallback,
  TranscriptionReadyCallback,
  RecordingReadyCallback,
  RecordingCopyFailedCallback,
  PerceptionAnalysisCallback,
  PostCallActionExecutedCallback,
  CanvasInteractionCallback,
  ConversationRatedCallback,
]);
export type ConversationCallback = z.infer<typeof ConversationCallback>;
export type ConversationCallbackType = ConversationCallback['event_type'];

/** The callback when it is one of the known conversation callbacks, otherwise null. */
export function parseConversationCallback(raw: unknown): ConversationCallback | null {
  const parsed = ConversationCallback.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
