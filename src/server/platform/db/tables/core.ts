import type { ColumnType, Generated } from 'kysely';

/** A timestamp column: read as Date, written as Date or ISO string, defaulted by the database. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb column holding T. */
export type Json<T> = ColumnType<T, string, string>;
/** Who may read a stored file: see resources/media/access.ts. */
export type MediaAccess = 'public' | 'owner' | 'face' | 'private';

export interface CoreTables {
  owners: { owner_id: number; webhook_secret: string; created_at: CreatedAt };
  api_keys: { key_hash: string; owner_id: number; label: string | null; created_at: CreatedAt };
  service_settings: { name: string; value: string };
  jobs: {
    job_id: Generated<number>;
    kind: string;
    payload: Json<unknown>;
    status: ColumnType<'queued' | 'running' | 'done' | 'failed', 'queued' | undefined, 'queued' | 'running' | 'done' | 'failed'>;
    attempts: Generated<number>;
    max_attempts: Generated<number>;
    run_at: CreatedAt;
    locked_until: NullableTimestamp;
    last_error: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  webhook_deliveries: {
    delivery_id: string;
    owner_id: number;
    group_id: string;
    seq: number;
    url: string;
    event_type: string;
    payload: Json<Record<string, unknown>>;
    status: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | undefined, 'pending' | 'delivered' | 'failed'>;
    attempts: Generated<number>;
    response_status: number | null;
    last_error: string | null;
    created_at: CreatedAt;
    delivered_at: NullableTimestamp;
  };
  /** `bytes` in the row (PostgreSQL, older PGlite rows), or `file`: its name in the media folder (PGlite). */
  /** `expires_at`: when an upload is swept away (resources/uploads/expiry.ts); null for media kept as long as what uses it. */
  /** `access` and `face_id`: who may read it (resources/media/access.ts; migration 1010). */
  media: {
    media_id: string;
    owner_id: number;
    content_type: string;
    bytes: Uint8Array | null;
    file: string | null;
    size: number | null;
    created_at: CreatedAt;
    expires_at: Generated<Date | null>;
    access: Generated<MediaAccess>;
    face_id: Generated<string | null>;
  };
}
