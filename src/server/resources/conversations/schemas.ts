// Wire shapes of conversations (keyed create/read/list/end) shared with the deployment start response.
import { z } from '@hono/zod-openapi';
import { MemoryStoreTags as ProtocolMemoryStoreTags, StartResponse } from '../../../protocol/public.js';
import { MAX_RATING_COMMENT, RatingBody as ProtocolRatingBody } from '../../../protocol/rating.js';
import { protocolSchema } from '../../platform/http/protocol-schema.js';
import { anyOfRequired } from '../../platform/http/openapi.js';

export const ConversationId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^c[a-z0-9]+$/, 'must look like a conversation id (c…)')
  .openapi({ param: { name: 'conversation_id', in: 'path' }, example: 'c8x2k4m9q7w3e5' });

/**
 * The path of a route a visitor's page, a runner or an operator calls for one conversation: the id is
 * checked loosely, so that an unknown or malformed one gets the route's own 401 or 404, not a 400.
 */
export const ConversationPath = z.object({
  conversation_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'conversation_id', in: 'path' }, example: 'c1a2b3c4d5e6f7' }),
});

const HttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const ConversationProperties = z
  .object({
    max_call_duration: z
      .number()
      .int()
      .min(10)
      .max(86_400)
      .optional()
      .openapi({ description: 'Seconds before the call is ended (default 3600)' }),
    participant_left_timeout: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .optional()
      .openapi({ description: 'Seconds the PAL waits after the visitor left before ending' }),
    participant_absent_timeout: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .optional()
      .openapi({ description: 'Seconds the PAL waits for a visitor who never joins' }),
    languages: z
      .array(
        z
          .string()
          .min(2)
          .max(35)
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag'),
      )
      .max(20)
      .optional()
      .openapi({ description: "Languages of this conversation; replaces (is not merged with) the PAL's languages" }),
    policy: z
      .literal('eu')
      .optional()
      .openapi({ description: "`eu` for European participants (delivers disclosures when the PAL's disclosure is `auto`)" }),
    enable_closed_captions: z.boolean().optional(),
    enable_recording: z
      .boolean()
      .optional()
      .openapi({ description: 'Record the call (both voices mixed); the visitor is told. Kept 30 days in the default storage' }),
    recording_destination_id: z
      .string()
      .min(2)
      .max(64)
      .regex(/^rd_[A-Za-z0-9]+$/, 'must look like a recording destination id (rd_…)')
      .optional()
      .openapi({
        description:
          'One of your recording destinations: the recording is copied there and `application.recording_ready` (or `recording_copy_failed`) is sent',
      }),
  })
  .openapi('ConversationProperties');
export type ConversationProperties = z.infer<typeof ConversationProperties>;

/** Stable visitor identifiers (participant tags) for memory. */
export const MemoryStoreTags = protocolSchema(ProtocolMemoryStoreTags, 'MemoryStoreTags');

export const CreateConversation = z
  .object({
    pal_id: z.string().min(1).max(64).optional().openapi({ description: 'The PAL to talk to (or `persona_id`)' }),
    persona_id: z.string().min(1).max(64).optional().openapi({ description: 'Legacy name of pal_id' }),
    face_id: z.string().min(1).max(64).optional().openapi({ description: "The face; defaults to the PAL's default face" }),
    replica_id: z.string().min(1).max(64).optional().openapi({ description: 'Legacy name of face_id' }),
    callback_url: HttpUrl.optional().openapi({ description: 'Receives the conversation callbacks' }),
    conversation_name: z.string().trim().min(1).max(200).optional(),
    conversational_context: z.string().max(20_000).optional(),
    custom_greeting: z.string().max(2_000).optional(),
    memory_stores: MemoryStoreTags.optional(),
    properties: ConversationProperties.optional(),
  })
  .openapi('CreateConversation', anyOfRequired('pal_id', 'persona_id'));
export type CreateConversation = z.infer<typeof CreateConversation>;

export const ConversationCreated = protocolSchema(StartResponse, 'ConversationCreated', {
  properties: {
    conversation_url: '`{public_url}/rooms/{id}` for a local room, or a Daily room URL',
    callback_url: 'Omitted when no callback address was given',
    meeting_token: "Admits one visitor to this room until the call's maximum duration (plus a margin)",
    face_rig_url:
      "A local room whose PAL has a trained face: its rig.json (the face's files, drawn in the visitor's page), so a page can fetch it while it joins; its address carries a token bound to this conversation (the sheets beside it, named relative to it, too), refused once the call ends or its room expires. Omitted otherwise",
  },
});

export const RatingBody = protocolSchema(ProtocolRatingBody, 'RatingBody', {
  properties: { stars: '1 (poor) to 5 (excellent)', comment: `What the visitor wants to add (at most ${MAX_RATING_COMMENT} characters)` },
});

export const ConversationRating = z
  .object({ stars: z.number().int(), comment: z.string().nullable(), rated_at: z.string() })
  .openapi('ConversationRating');

export const Conversation = z
  .object({
    conversation_id: z.string(),
    conversation_name: z.string(),
    conversation_url: z.string(),
    status: z.enum(['active', 'ended']),
    callback_url: z.string().nullable(),
    pal_id: z.string(),
    persona_id: z.string(),
    face_id: z.string().nullable(),
    replica_id: z.string().nullable(),
    deployment_id: z.string().nullable(),
    conversational_context: z.string().nullable(),
    custom_greeting: z.string().nullable(),
    memory_stores: z.array(z.string()),
    properties: z.record(z.string(), z.unknown()),
    shutdown_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    ended_at: z.string().nullable(),
    rating: ConversationRating.nullable()
      .optional()
      .openapi({ description: "The visitor's rating from the after-call screen, null before one (verbose=true only)" }),
    receipt: z
      .object({
        consent: z
          .object({ text: z.string(), terms_url: z.string().nullable(), accepted_at: z.string() })
          .nullable()
          .openapi({ description: "The deployment's terms the visitor accepted before the call (customization.consent), and when" }),
        disclosure: z
          .object({ visual: z.string().nullable(), verbal: z.string().nullable(), delivered_at: z.string() })
          .nullable()
          .openapi({ description: "The PAL's AI disclosure as it was delivered in the call, and when" }),
      })
      .nullable()
      .optional()
      .openapi({ description: 'What the visitor accepted and was told (verbose=true only); null when neither happened' }),
    turn_latencies: z
      .array(
        z.object({
          inference_id: z.string(),
          input: z.enum(['text', 'speech']),
          turn_ended_at: z.number(),
          heard_ms: z.number().optional(),
          mouth_ms: z.number().optional(),
          lip_sync_ms: z.number().optional(),
        }),
      )
      .optional()
      .openapi({
        description:
          'Per PAL reply, what the visitor heard as their page measured it (ms): to the first audible sample, the first mouth movement, lip-sync p95; a figure the page could not take is absent (verbose=true only)',
      }),
    events: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'Callback payloads, oldest first (verbose=true only)' }),
  })
  .openapi('Conversation');

export const ConversationList = z.object({ data: z.array(Conversation), total_count: z.number().int() }).openapi('ConversationList');

export const ListConversationsQuery = z.object({
  status: z.enum(['active', 'ended']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
