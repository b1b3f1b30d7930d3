import { z } from '@hono/zod-openapi';

export const MemoryStoreId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^m[a-z0-9]+$/, 'must match ^m[a-z0-9]+$')
  .openapi({ param: { name: 'memory_store_id', in: 'path' }, example: 'mvisitor42' });

export const MemoryStore = z
  .object({
    memory_store_id: z.string(),
    name: z.string().nullable(),
    participant_tag: z.string().nullable().openapi({
      description:
        'The stable visitor identifier this store belongs to (given as memory_stores when a conversation starts); null for a store not tied to a visitor',
    }),
    pal_id: z.string().nullable().openapi({
      description:
        'Set for a PAL-specific store: only that PAL recalls it. Null for a tag-based store any of your PALs recalls for the visitor',
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('MemoryStore');

export const CreateMemoryStore = z
  .object({
    memory_store_id: MemoryStoreId.optional().openapi({ description: 'Generated when absent' }),
    name: z.string().max(200).optional(),
    participant_tag: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .openapi({
        description:
          'Stable visitor identifier. When a deployment start (or conversation) gives memory_stores: with a single value, the PAL recalls the pinned memories of its PAL-specific store with that participant_tag; ' +
          'with several values, or when the visitor has a tag-based store (no pal_id), it recalls the tag-based stores of all the values',
      }),
    pal_id: z.string().min(1).max(64).optional().openapi({ description: 'Makes the store PAL-specific (needs participant_tag)' }),
  })
  .strict()
  .refine((b) => b.pal_id === undefined || b.participant_tag !== undefined, { message: 'pal_id needs participant_tag', path: ['pal_id'] })
  .openapi('CreateMemoryStore');

// Length is checked on the text as sent and the text is stored as sent: trimming first let 501 characters
// ending in a space through as 500. A memory of only spaces is still refused as empty.
export const MemoryText = z
  .string()
  .min(1, 'memory must not be empty')
  .max(500, 'memory is limited to 500 characters')
  .refine((m) => m.trim().length > 0, 'memory must not be empty');

export const PinnedMemory = z
  .object({
    memory_id: z.string(),
    memory: z.string(),
    created_at: z.string().openapi({ example: '2026-11-21 05:30:00' }),
    updated_at: z.string().openapi({ example: '2026-11-21 05:30:00' }),
  })
  .openapi('PinnedMemory');

export const CreatePinnedMemory = z.object({ memory: MemoryText }).openapi('CreatePinnedMemory');
