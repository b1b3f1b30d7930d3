// The room's HTTP side: the page at GET /rooms/{id}, and the keyed POST /v2/conversations/{id}/events
// that lets an operator (or a test) push interactions-protocol messages into a live local room.
import { z } from '@hono/zod-openapi';
import type { ApiApp } from '../../platform/http/app-env.js';
import { ApiError, badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import type { ServiceDeps } from '../../platform/context.js';
import { parseCanvasAction } from '../../../protocol/canvas.js';
import { hubFor } from './hub.js';
import { roomPage } from './page.js';
import { ROOM_ID } from './socket-server.js';
import { ConversationPath } from '../../resources/conversations/schemas.js';

export const RoomEvent = z
  .object({
    message_type: z.string().min(1).max(64).default('conversation'),
    event_type: z.string().min(1).max(128).openapi({ example: 'conversation.echo' }),
    inference_id: z.string().max(128).optional(),
    turn_idx: z.number().int().min(0).optional(),
    properties: z
      .record(z.string(), z.unknown())
      .default({})
      .openapi({ example: { text: 'Hello from the operator' } }),
  })
  .openapi('RoomEvent', {
    description:
      "An interactions-protocol message. PAL-side messages (utterances, tool calls, canvas actions …) are sent to every participant as the PAL's; " +
      'client→PAL messages (conversation.respond, echo, interrupt, overwrite/append_llm_context, sensitivity, tool_result) are acted on by the PAL. ' +
      'Magic Canvas actions (a conversation.tool_call named canvas_show_<component>, update_component or canvas_clear) must carry `arguments` as a JSON string the component accepts; otherwise 400 names the field.',
  });

export const pushEvent = keyedRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/events',
  tags: ['Conversations'],
  summary: 'Push an interactions-protocol message into a live local room',
  request: { params: ConversationPath, ...jsonBody(RoomEvent) },
  responses: {
    200: json(
      z.object({ delivered: z.literal(true), participants: z.number().int() }).openapi('RoomEventDelivered'),
      'Delivered to the room',
    ),
    ...errors(400, 404, 409, 410),
  },
});

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

export const roomPageRoute = publicRoute({
  method: 'get',
  path: '/rooms/{conversation_id}',
  tags: ['Conversations'],
  summary: 'The local room: a full-page conversation in a browser, a WebSocket (same URL, ws/wss) for the elements',
  description:
    'The meeting token is read from the URL fragment (`#t=…`) or typed in; it is never sent in a query string. WebSocket frames: see src/protocol/room.ts.',
  request: { params: ConversationPath },
  responses: { 200: html('The conversation page'), 404: html('No local room with this id') },
});

export function registerRoomRoutes(app: ApiApp, deps: ServiceDeps): void {
  const { db } = deps;

  app.openapi(pushEvent, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const conversation = await db
      .selectFrom('conversations')
      .select(['status', 'provider'])
      .where('conversation_id', '=', conversation_id)
      .where('owner_id', '=', c.get('ownerId'))
      .executeTakeFirst();
    if (!conversation) throw notFound('conversation_not_found');
    if (conversation.status !== 'active') throw new ApiError(410, 'conversation_ended');
    const body = c.req.valid('json');
    const refused = canvasProblem(body);
    if (refused) throw badRequest(`invalid_request: properties.arguments: ${refused}`);
    const participants = await hubFor(deps).push(conversation_id, { ...body, conversation_id });
    if (participants === null) throw conflict('room_not_live: nobody has joined this local room yet');
    return c.json({ delivered: true as const, participants }, 200);
  });

  app.openapi(roomPageRoute, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const row = ROOM_ID.test(conversation_id)
      ? await db
          .selectFrom('conversations')
          .select(['conversation_url', 'provider'])
          .where('conversation_id', '=', conversation_id)
          .executeTakeFirst()
      : undefined;
    if (!row || row.provider !== 'local') return c.html('<!doctype html><title>Not found</title><p>No such conversation.</p>', 404);
    return c.html(roomPage(row.conversation_url), 200, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  });
}

/** A Magic Canvas action the elements would refuse to show, in words; null for anything else. */
function canvasProblem(body: z.infer<typeof RoomEvent>): string | null {
  const { name, arguments: args, tool_call_id } = body.properties;
  if (body.event_type !== 'conversation.tool_call' || typeof name !== 'string') return null;
  if (!/^canvas_show_|^update_component$|^canvas_clear$/.test(name)) return null;
  if (typeof args !== 'string') return "a canvas action's arguments are a JSON string";
  const action = parseCanvasAction({ name, arguments: args, tool_call_id: typeof tool_call_id === 'string' ? tool_call_id : '' });
  return action?.kind === 'invalid' ? action.message : null;
}
