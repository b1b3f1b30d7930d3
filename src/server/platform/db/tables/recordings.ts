// Recording destinations and recordings (migration 0992).
import type { ColumnType, Generated } from 'kysely';

export type StorageProviderName = 's3' | 'gcs' | 'azure_blob';
export type RecordingStatus = 'recording' | 'stored' | 'copying' | 'delivered' | 'copy_failed';

type Created = ColumnType<Date, Date | undefined, Date>;

export interface RecordingTables {
  recording_destinations: {
    destination_id: string;
    owner_id: number;
    name: string | null;
    provider: StorageProviderName;
    bucket_name: string;
    region: string | null;
    endpoint: string | null;
    prefix: Generated<string>;
    /** The encrypted JSON of the provider's credentials (never read back through the API). */
    credentials: string;
    created_at: Created;
    updated_at: Created;
  };
  recordings: {
    recording_id: string;
    conversation_id: string;
    owner_id: number;
    status: ColumnType<RecordingStatus, RecordingStatus | undefined, RecordingStatus>;
    /** Key of the copy in the default storage. */
    default_key: string;
    content_type: Generated<string>;
    duration: number | null;
    size_bytes: ColumnType<string | null, number | null | undefined, number | null>;
    destination_id: string | null;
    /** Key of the object in the customer's destination. */
    object_key: string | null;
    copy_attempts: Generated<number>;
    next_attempt_at: Date | null;
    last_error: string | null;
    /** Set once, in the transaction that records the callback. */
    settled_at: Date | null;
    callback_event: string | null;
    default_deleted_at: Date | null;
    created_at: Created;
    ended_at: Date | null;
    expires_at: Date | null;
  };
}
