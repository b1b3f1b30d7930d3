// The visitor's rating after the call (POST /v2/conversations/{id}/rating with the meeting token).
import * as z from 'zod/mini';

export const MAX_RATING_COMMENT = 1000;

export const RatingBody = z.strictObject({
  /** 1 (poor) to 5 (excellent). */
  stars: z.int().check(z.minimum(1), z.maximum(5)),
  comment: z.optional(z.string().check(z.maxLength(MAX_RATING_COMMENT))),
});
export type RatingBody = z.infer<typeof RatingBody>;

export const RatingResponse = z.object({ stars: z.number(), comment: z.nullable(z.string()), rated_at: z.string() });
export type RatingResponse = z.infer<typeof RatingResponse>;
