// POST /v2/conversations/{id}/canvas/interactions: what a Magic Canvas card records (public while the
// conversation is active). The elements send it; the service validates and documents it with this schema.
import * as z from 'zod/mini';

const Id128 = z.string().check(z.minLength(1), z.maxLength(128));

export const CanvasInteractionType = z.enum(['submit', 'skip', 'dismiss', 'clear', 'error', 'heartbeat']);

export const CanvasInteractionBody = z.object({
  /** Idempotency key; the elements use ci_{tool_call_id}_{type}_{uuid}. */
  interaction_id: Id128,
  /** The canvas action call that showed the card. */
  tool_call_id: Id128,
  component: Id128,
  component_version: Id128,
  type: CanvasInteractionType,
  /** Checked per component and type by the service. */
  value: z._default(z.record(z.string(), z.unknown()), {}),
  /** Free-form; not part of the idempotency match. */
  metadata: z.optional(z.record(z.string(), z.unknown())),
});
export type CanvasInteractionBody = z.input<typeof CanvasInteractionBody>;

export const CanvasInteractionRecorded = z.object({ success: z.literal(true) });
