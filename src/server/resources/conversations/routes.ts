// Route definitions of the keyed conversation API.
import { z } from '@hono/zod-openapi';
import { ErrorBody, errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import {
  Conversation,
  ConversationCreated,
  ConversationId,
  ConversationList,
  CreateConversation,
  ListConversationsQuery,
} from './schemas.js';

const tags = ['Conversations'];
const params = z.object({ conversation_id: ConversationId });
/** How starting a conversation fails past its checks, here and at a deployment's public start. */
export const startFailures = {
  502: {
    description: 'The conferencing provider could not open a room',
    content: { 'application/json': { schema: ErrorBody } },
  },
  503: {
    description:
      '`pal_unavailable`: the PAL runner refused a Daily room or did not answer in time; the conversation was ended (`exception_encountered_during_conversation_startup`)',
    content: { 'application/json': { schema: ErrorBody } },
  },
};

export const create = keyedRoute({
  method: 'post',
  path: '/v2/conversations',
  tags,
  summary: 'Start a conversation with a PAL',
  description:
    "Opens a room (the service's own, or a Daily room when a Daily key is configured) and returns its URL and a meeting token for one visitor.",
  request: jsonBody(CreateConversation),
  responses: { 200: json(ConversationCreated, 'Conversation created'), ...errors(400, 429), ...startFailures },
});
export const list = keyedRoute({
  method: 'get',
  path: '/v2/conversations',
  tags,
  summary: 'List your conversations (newest first)',
  request: { query: ListConversationsQuery },
  responses: { 200: json(ConversationList, 'Conversations'), ...errors(400) },
});
export const get = keyedRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}',
  tags,
  summary: 'Get a conversation',
  request: {
    params,
    query: z.object({
      verbose: z.enum(['true', 'false']).optional().openapi({ description: '`true` adds `events` (the callback payloads)' }),
    }),
  },
  responses: { 200: json(Conversation, 'Conversation'), ...errors(400, 404) },
});
export const end = keyedRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/end',
  tags,
  summary: 'End a conversation',
  description:
    'Marks the conversation ended (shutdown_reason `end_conversation_endpoint_hit`) and closes its room. Ending an ended conversation changes nothing.',
  responses: { 200: json(Conversation, 'Ended conversation'), ...errors(400, 404) },
  request: { params },
});
