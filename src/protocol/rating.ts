// The visitor's rating after the call (POST /v2/conversations/{id}/rating with the meeting token).
import * as z from 'zod/mini';

export interface RatingBody {
  /** 1 (poor) to 5 (excellent). */
  stars: number;
  /** At most 1000 characters. */
  comment?: string;
}

export const RatingResponse = z.object({ stars: z.number(), comment: z.nullable(z.string()), rated_at: z.string() });
export type RatingResponse = z.infer<typeof RatingResponse>;
