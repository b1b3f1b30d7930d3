// Row type of generated videos (migration 0600).
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './core.js';

export type GenerationStatus = 'generating' | 'ready' | 'error';

export interface VideoTables {
  videos: {
    /** Long and random: the hosted page /videos/{video_id} is public by this id alone. */
    video_id: string;
    owner_id: number;
    face_id: string;
    video_name: string;
    script: string;
    status: ColumnType<GenerationStatus, GenerationStatus | undefined, GenerationStatus>;
    status_details: string | null;
    /** `<done>/<total>` steps of the generation job. */
    generation_progress: string;
    callback_url: string | null;
    background_url: string | null;
    background_source_url: string | null;
    /** Intermediate artifacts (media URLs on this service), kept so an interrupted job resumes. */
    speech_media_url: string | null;
    background_media_url: string | null;
    /** 'image' or 'video': how the stored background is fed to the renderer. */
    background_kind: 'image' | 'video' | null;
    /** Results; shown as download_url/stream_url and thumbnails once the status is `ready`. */
    video_media_url: string | null;
    still_media_url: string | null;
    gif_media_url: string | null;
    error_details: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
}
