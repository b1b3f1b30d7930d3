// Row types of the local conversation room (migration 0500): transcript entries, canvas interactions,
// and the rate windows of the public canvas endpoint. The room's columns on `conversations` sit in domain.ts.
import type { Generated } from 'kysely';
import type { CreatedAt, Json } from './core.js';

export interface LiveTables {
  conversation_transcript_entries: {
    entry_id: Generated<number>;
    conversation_id: string;
    role: 'user' | 'assistant';
    content: string;
    /** Unix epoch seconds when the turn began. */
    started_at: number;
    seconds_from_start: number;
    duration: number;
    inference_id: string | null;
    participant_name: string | null;
    /** The PAL was cut off; `content` is what was heard (migration 0994). */
    interrupted: Generated<boolean>;
    created_at: CreatedAt;
  };
  canvas_interactions: {
    seq: Generated<number>;
    conversation_id: string;
    interaction_id: string;
    tool_call_id: string;
    component: string;
    component_version: string;
    type: string;
    value: Json<Record<string, unknown>>;
    metadata: Json<Record<string, unknown>>;
    created_at: CreatedAt;
  };
  canvas_interaction_rate: { bucket: string; window_start: Date | string; hits: number };
  /** Per PAL reply, what the visitor heard as measured in their page (migration 0995); null = not measurable there. */
  conversation_turn_latencies: {
    latency_id: Generated<number>;
    conversation_id: string;
    inference_id: string;
    input: string;
    turn_ended_at: number;
    heard_ms: number | null;
    mouth_ms: number | null;
    lip_sync_ms: number | null;
    recorded_at: Generated<Date>;
  };
  /** The visitor's rating of a conversation, given once (migration 0940). */
  conversation_ratings: { conversation_id: string; stars: number; comment: string | null; rated_at: Generated<Date> };
  /** What the visitor accepted (the deployment's terms) and was told (the AI disclosure), and when (migration 0941). */
  conversation_receipts: {
    conversation_id: string;
    consent_text: string | null;
    consent_terms_url: string | null;
    consent_accepted_at: Date | null;
    disclosure_visual: string | null;
    disclosure_verbal: string | null;
    disclosure_delivered_at: Date | null;
  };
  /** Camera frames sampled for perception (migration 0991). */
  conversation_frames: { frame_id: Generated<number>; conversation_id: string; captured_at: Date; image: Uint8Array };
  /** Visitor sessions of a Daily room (migration 0990); `left_at` null while the session is in the room. */
  daily_participants: { conversation_id: string; session_id: string; joined_at: Generated<Date>; left_at: Date | null };
}
