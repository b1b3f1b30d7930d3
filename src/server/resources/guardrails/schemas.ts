// Wire shapes of guardrails: the individual guardrail and the deprecated set form.
import { z } from '@hono/zod-openapi';
import { JsonPatch } from '../../platform/http/json-patch.js';

/** Set ids start with `gs`, individual guardrail uuids with `gr`: the prefix tells the two forms apart. */
export const SET_PREFIX = 'gs';
export const ITEM_PREFIX = 'gr';
export const MAX_ITEMS_PER_SET = 50;

const HttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const GuardrailName = z.string().trim().min(1).max(200);
export const GuardrailPrompt = z.string().trim().min(1).max(10_000);
export const Modality = z.enum(['verbal', 'visual']);
export const Tags = z.array(z.string().trim().min(1).max(100)).max(50);

/** The fields a guardrail item carries (set `data` entries and individual guardrails alike). */
const itemFields = {
  guardrail_name: GuardrailName,
  guardrail_prompt: GuardrailPrompt,
  modality: Modality.default('verbal').openapi({ description: 'verbal (default) or visual' }),
  callback_url: HttpUrl.nullable()
    .optional()
    .openapi({ description: 'POSTed {conversation_id, properties: {guardrail, guardrail_uuid}} when the guardrail triggers' }),
  tags: Tags.optional().openapi({ description: 'PALs attach every guardrail carrying one of their guardrail_tags' }),
};

export const GuardrailItemInput = z.object(itemFields).strict().openapi('GuardrailItemInput');
export type GuardrailItemInput = z.infer<typeof GuardrailItemInput>;

export const CreateGuardrail = z.object(itemFields).strict().openapi('CreateGuardrail', {
  description: 'Individual guardrail: recognised by `guardrail_name` at the top level of the body.',
});

export const CreateGuardrailSet = z
  .object({ name: z.string().trim().min(1).max(200), data: z.array(GuardrailItemInput).max(MAX_ITEMS_PER_SET) })
  .strict()
  .openapi('CreateGuardrailSet', { description: 'Deprecated set form: `name` and `data`.' });

export const CreateGuardrailsBody = z.union([CreateGuardrail, CreateGuardrailSet]).openapi('CreateGuardrailsBody');

export const UpdateGuardrail = z
  .object({
    guardrail_name: GuardrailName.optional(),
    guardrail_prompt: GuardrailPrompt.optional(),
    modality: Modality.optional(),
    callback_url: HttpUrl.nullable().optional(),
    tags: Tags.optional(),
  })
  .strict()
  .openapi('UpdateGuardrail', {
    description: 'Partial update of an individual guardrail: only sent fields change; callback_url null clears it.',
  });

export const PatchGuardrailsBody = z.union([JsonPatch, UpdateGuardrail]).openapi('PatchGuardrailsBody', {
  description:
    'For a set id (`gs…`): a JSON Patch over the set document `{name, data}`. For a guardrail uuid (`gr…`): a partial object of item fields, or a JSON Patch over the item document.',
});

export const Guardrail = z
  .object({
    uuid: z.string().openapi({ example: 'grk3x9…' }),
    guardrail_name: z.string(),
    guardrail_prompt: z.string(),
    modality: Modality,
    callback_url: z.string().optional().openapi({ description: 'Omitted when the guardrail has none' }),
    tags: z.array(z.string()),
    guardrails_id: z.string().nullable().openapi({ description: 'The deprecated set this guardrail is an item of, if any' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Guardrail');

export const GuardrailSetItem = z
  .object({
    uuid: z.string(),
    guardrail_name: z.string(),
    guardrail_prompt: z.string(),
    modality: Modality,
    callback_url: z.string().optional(),
    tags: z.array(z.string()),
  })
  .openapi('GuardrailSetItem');

export const GuardrailSet = z.object({ uuid: z.string(), name: z.string(), data: z.array(GuardrailSetItem) }).openapi('GuardrailSet');

export const GuardrailSetCreated = z
  .object({ guardrails_id: z.string(), guardrails_name: z.string(), status: z.literal('active'), created_at: z.string() })
  .openapi('GuardrailSetCreated');

export const GuardrailId = z
  .string()
  .min(3)
  .max(64)
  .regex(/^g[a-z0-9]+$/, 'must be a guardrail set id (gs…) or a guardrail uuid (gr…)')
  .openapi({ param: { name: 'guardrails_id', in: 'path' }, description: 'A set id (gs…) or an individual guardrail uuid (gr…)' });

export const ListQuery = z.object({
  legacy: z.enum(['true', 'false']).optional().openapi({ description: 'true (default): guardrail sets; false: individual guardrails' }),
  page: z.coerce.number().int().min(1).max(100_000).optional().openapi({ description: 'Page number, from 1 (default 1)' }),
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Page size (default 50, at most 100)' }),
  tag: z.string().max(100).optional().openapi({ description: 'Individual list only: guardrails carrying this tag' }),
});
