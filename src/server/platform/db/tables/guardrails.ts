// Row types of guardrails (migration 0400): individual guardrails, optionally mirrored from a deprecated set.
import type { CreatedAt, Json } from './core.js';

export interface GuardrailTables {
  /** Deprecated named sets (`guardrails_id`, prefix `gs`). */
  guardrail_sets: {
    guardrails_id: string;
    owner_id: number;
    name: string;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
  /**
   * Every individually addressable guardrail (`uuid`, prefix `gr`). Items of a set are rows here with
   * `guardrails_id` set and their order in `position`, so a set item and its individual form are one row.
   */
  guardrails: {
    uuid: string;
    owner_id: number;
    guardrails_id: string | null;
    position: number;
    guardrail_name: string;
    guardrail_prompt: string;
    modality: 'verbal' | 'visual';
    callback_url: string | null;
    tags: Json<string[]>;
    created_at: CreatedAt;
    updated_at: CreatedAt;
  };
}
