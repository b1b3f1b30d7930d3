// Wire shapes of PALs (the older name is persona). One input schema serves create, the legacy path and
// the result of a JSON Patch; the rules across fields live in document.ts.
import { z } from '@hono/zod-openapi';
import { anyOfRequired } from '../../platform/http/openapi.js';
import { PostCallAction } from '../conversations/post-call.js';
import { DAILY_RUNNERS } from './daily-runner.js';

const opt = <T extends z.ZodType>(s: T) => s.nullable().optional();
const Id = z.string().min(1).max(64);
const Tag = z.string().trim().min(1).max(100);
const Loose = z.record(z.string(), z.unknown());

export const ConferencingLayer = z.looseObject({
  username: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/, 'must be 1 to 64 lowercase letters, digits, dots, dashes or underscores')
    .openapi({ description: "Local part of the PAL's conferencing address (conferencing_email)" }),
});

export const McpLayer = z.looseObject({
  connectors: z.array(Id).max(50).optional().openapi({ description: 'connector_ids the PAL may use' }),
  connector_tools: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .openapi({ description: 'Per connector, the tool names the PAL may call' }),
});

export const DailyLayer = z
  .object({
    runner: z.enum(DAILY_RUNNERS).optional().openapi({
      description:
        "Who puts the PAL in Daily rooms: `palkit` (palkit's own runner) or `handoff` (the room is handed to your own bot at PALKIT_PAL_RUNNER_URL). Unset: your bot when one is configured, else palkit's runner",
    }),
  })
  .strict();

export const Layers = z
  .object({
    perception: Loose.optional(),
    stt: Loose.optional(),
    conversational_flow: Loose.optional(),
    llm: Loose.optional().openapi({ description: 'An api_key here is stored encrypted and shown masked' }),
    tts: Loose.optional(),
    conferencing: ConferencingLayer.optional(),
    mcp: McpLayer.optional(),
    daily: DailyLayer.optional(),
    post_call_actions: z.array(PostCallAction).max(10).optional().openapi({
      description:
        'HTTP requests made once after each conversation; each reports application.post_call_action_executed to the conversation callback_url',
    }),
  })
  .strict()
  .openapi('PalLayers');

export const PalInput = z
  .object({
    pal_name: opt(z.string().trim().min(1).max(200)),
    persona_name: opt(z.string().trim().min(1).max(200)).openapi({ description: 'Alias of pal_name' }),
    system_prompt: opt(z.string().max(100_000)).openapi({ description: 'Required unless pipeline_mode is echo' }),
    pipeline_mode: opt(z.enum(['full', 'echo'])).openapi({ description: 'Default full' }),
    default_face_id: opt(Id).openapi({ description: 'Required on /v2/pals and when layers.conferencing is set' }),
    default_replica_id: opt(Id).openapi({ description: 'Alias of default_face_id' }),
    custom_greeting: opt(z.string().max(2000)),
    context: opt(z.string().max(100_000)),
    languages: opt(z.array(z.string().min(2).max(16)).max(20)),
    document_ids: opt(z.array(Id).max(100)),
    document_tags: opt(z.array(Tag).max(50)),
    objectives_id: opt(Id),
    guardrail_ids: opt(z.array(Id).max(50, 'at most 50 guardrail_ids')),
    guardrail_tags: opt(z.array(Tag).max(50, 'at most 50 guardrail_tags')),
    guardrails_id: opt(Id).openapi({ description: 'Deprecated guardrail set' }),
    disclosure_type: opt(z.enum(['always', 'auto', 'off'])).openapi({
      description: 'Default auto (disclose when the conversation policy is eu)',
    }),
    verbal_disclosure: opt(z.string().max(1000)),
    visual_disclosure: opt(z.string().max(1000)),
    layers: opt(Layers),
  })
  .strict()
  .openapi('PalInput');
export type PalInput = z.infer<typeof PalInput>;

// What a create requires, for the OpenAPI document (requests are checked by PalInput and document.ts).
const named = anyOfRequired('pal_name', 'persona_name');
const faced = anyOfRequired('default_face_id', 'default_replica_id');
const prompted = {
  anyOf: [{ required: ['system_prompt'] }, { required: ['pipeline_mode'], properties: { pipeline_mode: { const: 'echo' } } }],
};
/** POST /v2/pals: a name, a face (by either name), and a system prompt unless it echoes. */
export const PalCreateInput = PalInput.openapi('PalCreateInput', { allOf: [named, faced, prompted] });
/** POST /v2/personas: the same, its face optional. */
export const PersonaCreateInput = PalInput.openapi('PersonaCreateInput', { allOf: [named, prompted] });

const documentFields = {
  system_prompt: z.string().nullable(),
  pipeline_mode: z.enum(['full', 'echo']),
  custom_greeting: z.string().nullable(),
  context: z.string().nullable(),
  languages: z.array(z.string()),
  document_ids: z.array(z.string()),
  document_tags: z.array(z.string()),
  objectives_id: z.string().nullable(),
  guardrail_ids: z.array(z.string()),
  guardrail_tags: z.array(z.string()),
  guardrails_id: z.string().nullable(),
  disclosure_type: z.enum(['always', 'auto', 'off']),
  verbal_disclosure: z.string().nullable(),
  visual_disclosure: z.string().nullable(),
  layers: z.record(z.string(), z.unknown()),
  conferencing_email: z.string().optional().openapi({ description: 'Present when layers.conferencing is set' }),
  created_at: z.string(),
  updated_at: z.string(),
};

export const Pal = z
  .object({ pal_id: z.string(), pal_name: z.string(), default_face_id: z.string().nullable(), ...documentFields })
  .openapi('Pal');
export const Persona = z
  .object({ persona_id: z.string(), persona_name: z.string(), default_replica_id: z.string().nullable(), ...documentFields })
  .openapi('Persona');

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  page: z.coerce.number().int().min(1).default(1),
});
