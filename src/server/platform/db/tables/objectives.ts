// Objectives and their progress per conversation (migration 0803).
import type { ColumnType } from 'kysely';
import type { Json } from './core.js';

export interface ObjectiveItem {
  objective_name: string;
  objective_prompt?: string;
  output_variables: string[];
  callback_url?: string;
}

export interface ObjectiveTables {
  objectives: {
    objectives_id: string;
    owner_id: number;
    name: string | null;
    data: Json<ObjectiveItem[]>;
    created_at: ColumnType<Date, Date | undefined, Date>;
  };
  conversation_objectives: {
    conversation_id: string;
    objective_name: string;
    output_variables: Json<Record<string, unknown>>;
    completed_at: Date | null;
  };
}
