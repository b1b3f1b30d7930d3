// The runner API: what a PAL bot in a Daily room may ask of the service, with the conversation token it
// received in the handoff (`Authorization: Bearer rt.…`): the PAL's knowledge, and the transcript it reports.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { TranscriptEntry as TranscriptEntryMini } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp, AppEnv } from '../../platform/http/app-env.js';
import { ApiError, unauthorized } from '../../platform/http/errors.js';
import { errors, json, jsonBody, publicRoute, UnauthorizedBody } from '../../platform/http/openapi.js';
import { loadLiveConversation } from '../../resources/conversations/live-conversation.js';
import { recall } from '../agent/knowledge.js';
import { appendTranscriptEntry } from '../../resources/conversations/transcript-store.js';
import { verifyRunnerToken } from './conversation-token.js';
import { ConversationPath } from '../../resources/conversations/schemas.js';

const tags = ['PAL runner'];
const security = [{ RunnerToken: [] }];
const unauth = json(UnauthorizedBody, 'Missing, wrong or expired conversation token');

const Knowledge = z
  .object({
    passages: z.array(z.object({ document_name: z.string(), content: z.string(), score: z.number() })),
    memories: z.array(z.string()).openapi({ description: "Pinned memories of the conversation's memory stores" }),
  })
  .openapi('RunnerKnowledge');

const TranscriptEntry = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.string().max(20_000),
    timestamp: z.number().openapi({ description: 'Unix epoch seconds (float) when the turn began' }),
    seconds_from_start: z.number().min(0),
    duration: z.number().min(0),
    inference_id: z.string().max(128).optional(),
    participant_name: z.string().max(200).optional(),
  })
  .openapi('RunnerTranscriptEntry');
const TranscriptReport = z.object({ entries: z.array(TranscriptEntry).min(1).max(200) }).openapi('RunnerTranscriptReport');

/** The body of the handoff POST to PALKIT_PAL_RUNNER_URL (documented as the OpenAPI webhook `palRunnerHandoff`). */
export const RunnerHandoff = z
  .object({
    conversation_id: z.string(),
    room_url: z.string().openapi({ example: 'https://your-domain.daily.co/c1a2b3c4d5e6f7' }),
    bot_token: z.string().openapi({
      description: 'Daily meeting token for the bot: owner, `user_name` = PAL name, `user_id` = `bot_user_id`, expires with the room',
    }),
    bot_user_id: z.string().openapi({
      example: 'pal_p1a2b3c4',
      description: 'The bot must join with this id (the token sets it); its `participant.joined` sends `system.pal_joined`',
    }),
    expires_at: z.string().openapi({ description: 'When the room and both tokens expire (ISO 8601)' }),
    pal: z.object({
      pal_id: z.string(),
      name: z.string(),
      pipeline_mode: z.enum(['full', 'echo']),
      system_prompt: z.string().nullable(),
      greeting: z
        .string()
        .openapi({ description: "What to say first: the conversation's custom_greeting, else the PAL's, else a built-in one" }),
      disclosure: z.object({
        required: z.boolean().openapi({ description: 'Say `verbal` before the greeting and show `visual`' }),
        verbal: z.string(),
        visual: z.string(),
      }),
      languages: z.array(z.string()),
      layers: z
        .record(z.string(), z.unknown())
        .openapi({ description: "The PAL's layers with every secret field (api_key, tokens, passwords) removed" }),
      face_id: z.string().nullable(),
      face_rig_url: z.string().nullable().openapi({
        example: 'https://palkit.example/media/m1a2b3c4.json',
        description:
          "A trained face's rig (rig.json, its idle loop and mouth sheets beside it; absolute, under PALKIT_PUBLIC_URL, served immutable) so the bot can show the same face the elements draw; null for the built-in face (Ada) and faces without a rig",
      }),
    }),
    conversational_context: z.string().nullable(),
    custom_greeting: z.string().nullable(),
    memory_stores: z.array(z.string()),
    properties: z.record(z.string(), z.unknown()),
    api: z.object({
      base_url: z.string(),
      conversation_token: z
        .string()
        .openapi({ description: '`Authorization: Bearer` credential for the runner API of this conversation only' }),
      knowledge_url: z.string(),
      transcript_url: z.string(),
    }),
  })
  .openapi('RunnerHandoff');
export type RunnerHandoff = z.infer<typeof RunnerHandoff>;

export const knowledgeRoute = publicRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}/runner/knowledge',
  tags,
  summary: "Search the PAL's knowledge (PAL runner)",
  description:
    "Passages of the PAL's knowledge documents and the pinned memories of the conversation's memory stores, as the local PAL uses them. `Authorization: Bearer {api.conversation_token}` from the handoff.",
  request: { params: ConversationPath, query: z.object({ query: z.string().min(1).max(2000) }) },
  responses: { 200: json(Knowledge, 'What the PAL knows about the query'), 401: unauth, ...errors(400, 404) },
});
(knowledgeRoute as { security: unknown }).security = security;

export const transcriptRoute = publicRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/runner/transcript',
  tags,
  summary: 'Report transcript turns (PAL runner)',
  description:
    'Appends turns to the transcript sent in `application.transcription_ready`. Report each turn when it is spoken (the meeting may end any moment); accepted until the end callbacks were sent, then 409.',
  request: { params: ConversationPath, ...jsonBody(TranscriptReport) },
  responses: { 200: json(z.object({ accepted: z.number().int() }), 'Recorded'), 401: unauth, ...errors(400, 404, 409) },
});
(transcriptRoute as { security: unknown }).security = security;

function requireRunner(c: Context<AppEnv>, deps: ServiceDeps, conversationId: string): void {
  const header = c.req.header('authorization') ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token || !verifyRunnerToken(deps.secrets, conversationId, token, deps.clock.now())) throw unauthorized('Invalid conversation token');
}

export function registerRunnerRoutes(app: ApiApp, deps: ServiceDeps): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'RunnerToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The `api.conversation_token` a PAL runner receives in the handoff; valid for that conversation until its room expires.',
  });

  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'palRunnerHandoff',
    tags,
    summary: 'A Daily room handed to the PAL runner (POST to PALKIT_PAL_RUNNER_URL)',
    description:
      'Sent while the conversation is being created, when Daily rooms are used and PALKIT_PAL_RUNNER_URL is set. Signed per Standard Webhooks with PALKIT_PAL_RUNNER_SECRET ' +
      '(`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`). Answer 2xx within 6 s once a bot is on its way; ' +
      'the bot joins `room_url` with `bot_token` and speaks the interactions protocol as Daily app-messages. Any other answer, a timeout or a network error ends the conversation ' +
      '(`exception_encountered_during_conversation_startup`), deletes the room, and the start answers 503 `pal_unavailable`. Not retried: the visitor is waiting.',
    request: { body: { required: true, content: { 'application/json': { schema: RunnerHandoff } } } },
    responses: {
      200: { description: 'Accepted: a bot will join the room' },
      500: { description: 'Refused (any non-2xx): the conversation ends' },
    },
  });

  // The runner's token is checked before anything else reads the request, as a key is for keyed routes.
  app.use('/v2/conversations/:conversation_id/runner/*', async (c, next) => {
    requireRunner(c, deps, c.req.param('conversation_id') ?? '');
    await next();
  });

  app.openapi(knowledgeRoute, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const conv = await loadLiveConversation(deps.db, conversation_id);
    if (!conv) throw new ApiError(404, 'conversation_not_found');
    return c.json(await recall(deps, conv, c.req.valid('query').query), 200);
  });

  app.openapi(transcriptRoute, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const row = await deps.db
      .selectFrom('conversations')
      .select(['live_finalized_at'])
      .where('conversation_id', '=', conversation_id)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'conversation_not_found');
    if (row.live_finalized_at) throw new ApiError(409, 'conversation_finalized: the transcript was already sent');
    const { entries } = c.req.valid('json');
    for (const entry of entries) await appendTranscriptEntry(deps.db, conversation_id, TranscriptEntryMini.parse(entry));
    return c.json({ accepted: entries.length }, 200);
  });
}
