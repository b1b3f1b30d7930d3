// POST /v2/conversations/{id}/canvas/interactions (public while the conversation is active; any origin)
// and its keyed list. A recorded interaction goes to the callback_url as `canvas.interaction` and into
// the live room so the PAL reacts.
import { getConnInfo } from '@hono/node-server/conninfo';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { AppEnv, ApiApp } from '../../platform/http/app-env.js';
import { badRequest, conflict, notFound, tooManyRequests, ApiError } from '../../platform/http/errors.js';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import type { ServiceDeps } from '../../platform/context.js';
import { emitConversationCallbacks } from '../../resources/conversations/events-store.js';
import { canvasInteractionCallback } from '../../resources/conversations/callbacks.js';
import { canvasValueProblem } from '../../../protocol/canvas.js';
import { countCanvasRequest, listCanvasInteractions, recordCanvasInteraction } from './store.js';
import { hubFor } from '../hub/hub.js';
import {
  CanvasInteractionBody as ProtocolCanvasInteractionBody,
  CanvasInteractionRecorded,
  CanvasInteractionType,
} from '../../../protocol/canvas-interaction.js';
import { protocolSchema } from '../../platform/http/protocol-schema.js';
import { ConversationPath } from '../../resources/conversations/schemas.js';

const tags = ['Magic Canvas'];
/** A visitor's interaction is a few answers: anything larger is not one, and would be stored per request. */
export const MAX_CANVAS_BODY_BYTES = 16 * 1024;
const InteractionType = z.enum(CanvasInteractionType.options);

export const CanvasInteractionBody = protocolSchema(ProtocolCanvasInteractionBody, 'CanvasInteractionBody', {
  properties: {
    interaction_id: 'Idempotency key; clients use ci_{tool_call_id}_{type}_{uuid}',
    tool_call_id: 'The canvas action call that showed the card',
    value: 'Validated per component and type',
    metadata: 'Free-form; not part of the idempotency match',
  },
});

export const CanvasInteraction = z
  .object({
    conversation_id: z.string(),
    interaction_id: z.string(),
    tool_call_id: z.string(),
    component: z.string(),
    component_version: z.string(),
    type: InteractionType,
    value: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.string().openapi({ example: '2026-11-21T05:30:00.123Z' }),
  })
  .openapi('CanvasInteraction');

export const recordInteraction = publicRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/canvas/interactions',
  tags,
  summary: 'Record a Magic Canvas interaction (no key while the conversation is active; 120 per minute per address)',
  request: { params: ConversationPath, ...jsonBody(CanvasInteractionBody) },
  responses: {
    200: json(protocolSchema(CanvasInteractionRecorded, 'CanvasInteractionRecorded'), 'Recorded (or an identical retry)'),
    ...errors(400, 404, 409, 410, 429),
  },
});

export const listInteractions = keyedRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}/canvas/interactions',
  tags,
  summary: 'List the Magic Canvas interactions of a conversation (oldest first)',
  request: { params: ConversationPath },
  responses: {
    200: json(z.object({ data: z.array(CanvasInteraction) }).openapi('CanvasInteractionList'), 'Interactions'),
    ...errors(400, 404),
  },
});

/** The caller's address as the socket sees it (proxies are not trusted to say otherwise). */
function clientAddress(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function registerCanvasRoutes(app: ApiApp, deps: ServiceDeps): void {
  const { db, clock } = deps;
  app.use(
    '/v2/conversations/:conversation_id/canvas/interactions',
    cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], exposeHeaders: ['Retry-After'], maxAge: 600 }),
  );
  app.use(
    '/v2/conversations/:conversation_id/canvas/interactions',
    bodyLimit({
      maxSize: MAX_CANVAS_BODY_BYTES,
      onError: (c) =>
        c.json({ error: `payload_too_large: canvas interactions are limited to ${MAX_CANVAS_BODY_BYTES} bytes` }, 413, {
          connection: 'close',
        }),
    }),
  );

  app.openapi(recordInteraction, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const body = c.req.valid('json');
    const conversation = await db
      .selectFrom('conversations')
      .select(['owner_id', 'callback_url', 'status', 'provider'])
      .where('conversation_id', '=', conversation_id)
      .executeTakeFirst();
    if (!conversation) throw notFound('conversation_not_found');
    if (conversation.status !== 'active') throw new ApiError(410, 'conversation_ended');
    const now = clock.now();
    const retryAfter = await countCanvasRequest(db, clientAddress(c), conversation_id, now);
    if (retryAfter !== null) throw tooManyRequests('Too many requests', retryAfter);
    const problem = canvasValueProblem(body.component, body.component_version, body.type, body.value);
    if (problem) throw badRequest(`invalid_request: ${problem}`);
    const outcome = await recordCanvasInteraction(db, conversation_id, body, now);
    if (outcome.kind === 'conflict') throw conflict(`interaction_id ${body.interaction_id} was already recorded with different content`);
    if (outcome.kind === 'recorded') {
      await emitConversationCallbacks(deps, { conversation_id, owner_id: conversation.owner_id, callback_url: conversation.callback_url }, [
        canvasInteractionCallback(outcome.record, now),
      ]);
      await hubFor(deps).canvasInteraction(conversation_id, outcome.record);
    }
    return c.json({ success: true as const }, 200);
  });

  app.openapi(listInteractions, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const owned = await db
      .selectFrom('conversations')
      .select('conversation_id')
      .where('conversation_id', '=', conversation_id)
      .where('owner_id', '=', c.get('ownerId'))
      .executeTakeFirst();
    if (!owned) throw notFound('conversation_not_found');
    return c.json({ data: await listCanvasInteractions(db, conversation_id) }, 200);
  });
}
