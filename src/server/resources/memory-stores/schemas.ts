import { z } from '@hono/zod-openapi';

export const MemoryStoreId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^m[a-z0-9]+$/, 'must match ^m[a-z0-9]+$')
  .openapi({ param: { name: 'memory_store_id', in: 'path' }, example: 'mvisitor42' });

export const MemoryStore = z
  .object({ memory_store_id: z.string(), name: z.string().nullable(), created_at: z.string(), updated_at: z.string() })
  .openapi('MemoryStore');

export const CreateMemoryStore = z
  .object({
    memory_store_id: MemoryStoreId.optional().openapi({ description: 'Generated when absent' }),
    name: z.string().max(200).optional(),
  })
  .strict()
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
