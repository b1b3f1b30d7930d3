// Row types of the core domain tables (migration 0002). Areas that need more columns or tables add a
// migration of their own and a table file beside this one.
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp } from './core.js';

/** Who consented to a face being made, when, and to what text (faces.consent). */
export interface FaceConsent {
  given_by: string;
  text: string;
  given_at: string;
  recorded_at: string;
}

export interface DomainTables {
  faces: {
    face_id: string;
    owner_id: number;
    face_name: string;
    train_video_url: string | null;
    callback_url: string | null;
    /** `training` (from creation until the job ends), then `completed` or `error`. */
    status: string;
    training_progress: Generated<string>;
    error_message: string | null;
    thumbnail_video_url: string | null;
    thumbnail_image_url: string | null;
    model_name: string | null;
    face_type: Generated<'user' | 'system'>;
    /** A face the elements draw themselves (e.g. `palkit:ada`); null for trained faces. Migration 0700. */
    face_model: ColumnType<string | null, string | null | undefined, string | null>;
    /** What training learnt about the video (container, bytes, duration, size); migration 0100. */
    training_details: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    /** The consent the face was made with (`{given_by, text, given_at, recorded_at}`); migration 1011. */
    consent: ColumnType<FaceConsent | null, string | null | undefined, string | null>;
    /** When the training callbacks were queued (with the final status, in one transaction); migration 0100. */
    callback_sent_at: NullableTimestamp;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  pals: {
    pal_id: string;
    owner_id: number;
    pal_name: string;
    pipeline_mode: Generated<'full' | 'echo'>;
    default_face_id: string | null;
    /** `pals` or `personas`: the path it was created through (drives which id names are shown). */
    created_via: Generated<'pals' | 'personas'>;
    /** The whole PAL document as stored (system_prompt, languages, disclosure, guardrails, layers …). */
    definition: Json<Record<string, unknown>>;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  pal_skills: {
    pal_id: string;
    skill_id: string;
    config: Json<Record<string, unknown>>;
    attached_at: CreatedAt;
    updated_at: CreatedAt;
  };
  deployments: {
    deployment_id: string;
    owner_id: number;
    pal_id: string;
    channel: 'widget' | 'embed' | 'landing-page';
    status: Generated<'draft' | 'active' | 'inactive'>;
    name: Generated<string>;
    password_hash: string | null;
    /** Write-only: signs the visitor tokens of public starts (secrets.encrypt). */
    visitor_token_secret_encrypted: Generated<string | null>;
    customization: Json<Record<string, unknown>>;
    limits: Json<Record<string, unknown>>;
    allowed_origins: Json<string[]>;
    /** Callback address for the conversations this deployment starts (palkit extension). */
    callback_url: string | null;
    usage_total: Generated<number>;
    /** Bumped on every change; the ETag is derived from it. */
    version: Generated<number>;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  conversations: {
    conversation_id: string;
    owner_id: number;
    pal_id: string;
    face_id: string | null;
    deployment_id: string | null;
    conversation_name: string;
    status: ColumnType<'active' | 'ended', 'active' | undefined, 'active' | 'ended'>;
    provider: 'local' | 'daily';
    conversation_url: string;
    callback_url: string | null;
    conversational_context: string | null;
    custom_greeting: string | null;
    memory_stores: Json<string[]>;
    /** The conversation's `properties` as given (max_call_duration, timeouts, languages, policy …). */
    properties: Json<Record<string, unknown>>;
    /** Hash of the visitor's address for per-visitor daily limits (deployment starts only). */
    visitor_key: string | null;
    shutdown_reason: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
    ended_at: NullableTimestamp;
    /** The local room's life marks (migration 0500, see tables/live.ts). */
    live_started_at: NullableTimestamp;
    live_empty_since: NullableTimestamp;
    live_heartbeat_at: NullableTimestamp;
    live_finalized_at: NullableTimestamp;
    /** The instance whose process runs the room (migration 0993); the others relay to it. */
    live_holder: string | null;
    /** When the room closes (created_at + max_call_duration); an active row past it no longer counts as a live call. */
    expires_at: NullableTimestamp;
    /** The conferencing provider's room name (Daily), used to delete the room at the end. */
    provider_room: string | null;
  };
  /** participant_tag and pal_id: migration 0802 (a visitor's store, PAL-specific when pal_id is set). */
  memory_stores: {
    memory_store_id: string;
    owner_id: number;
    name: string | null;
    pal_id: string | null;
    participant_tag: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  pinned_memories: { memory_id: string; memory_store_id: string; memory: string; created_at: CreatedAt; updated_at: CreatedAt };
}

export interface DeploymentAttemptTables {
  /** Failed password attempts per deployment and hashed client address (migration 0200). */
  deployment_password_attempts: {
    deployment_id: string;
    client_key: string;
    failures: Generated<number>;
    window_started_at: CreatedAt;
    blocked_until: NullableTimestamp;
  };
}

export interface ConversationEventTables {
  conversation_events: {
    event_id: Generated<number>;
    conversation_id: string;
    event_type: string;
    /** The callback body exactly as sent (conversation_id, event_type, message_type, timestamp, properties …). */
    payload: Json<Record<string, unknown>>;
    created_at: CreatedAt;
  };
}
