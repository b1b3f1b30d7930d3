// Row type of generated speech items (migration 0600).
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './core.js';
import type { GenerationStatus } from './videos.js';

export interface SpeechTables {
  speech: {
    speech_id: string;
    owner_id: number;
    speech_name: string;
    script: string;
    /** Synthesiser voice (espeak-ng voice name for the local renderer). */
    voice: string;
    /** 'mp3', 'ogg' or 'wav'; null lets the renderer choose (mp3 when it can encode it, else wav). */
    audio_format: 'mp3' | 'ogg' | 'wav' | null;
    status: ColumnType<GenerationStatus, GenerationStatus | undefined, GenerationStatus>;
    generation_progress: string;
    callback_url: string | null;
    audio_url: string | null;
    /** Seconds. */
    duration: number | null;
    error_details: string | null;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
}
