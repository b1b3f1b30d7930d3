import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import { CaptureVariables, CreateObjectives, ObjectiveProgress, Objectives } from './schemas.js';

const tags = ['Objectives'];
const params = z.object({
  objectives_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'objectives_id', in: 'path' } }),
});
const convParams = z.object({
  conversation_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'conversation_id', in: 'path' } }),
});
const Progress = z.object({ data: z.array(ObjectiveProgress) }).openapi('ObjectiveProgressList');

export const create = keyedRoute({
  method: 'post',
  path: '/v2/objectives',
  tags,
  summary: 'Create objectives (attach them to a PAL with objectives_id)',
  request: jsonBody(CreateObjectives),
  responses: { 200: json(Objectives, 'Created'), ...errors(400) },
});
export const list = keyedRoute({
  method: 'get',
  path: '/v2/objectives',
  tags,
  summary: 'List your objectives (newest first)',
  responses: { 200: json(z.object({ data: z.array(Objectives) }), 'Objectives') },
});
export const get = keyedRoute({
  method: 'get',
  path: '/v2/objectives/{objectives_id}',
  tags,
  summary: 'Get objectives',
  request: { params },
  responses: { 200: json(Objectives, 'Objectives'), ...errors(404) },
});
export const remove = keyedRoute({
  method: 'delete',
  path: '/v2/objectives/{objectives_id}',
  tags,
  summary: 'Delete objectives; PALs referencing them lose objectives_id',
  request: { params },
  responses: { 200: json(z.object({ deleted: z.literal(true) }), 'Deleted'), ...errors(404) },
});
export const progress = keyedRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}/objectives',
  tags,
  summary: "Progress of the conversation's objectives",
  request: { params: convParams },
  responses: { 200: json(Progress, 'Progress'), ...errors(404) },
});
export const capture = keyedRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/objectives/variables',
  tags,
  summary: 'Report captured output variables',
  description:
    "Values for output variables of the objectives attached to the conversation's PAL (names no objective declares are ignored). " +
    'An objective completes when all its output variables are captured; its callback_url then receives {conversation_id, objective_name, output_variables}, once. ' +
    "In a live conversation whose PAL asks a language model, the model also records values itself (the function record_objective_values, offered with the objectives' prompts), " +
    "and a connector tool's result whose fields are named like output variables captures them.",
  request: { params: convParams, ...jsonBody(CaptureVariables) },
  responses: { 200: json(Progress, 'Progress after the capture'), ...errors(400, 404, 410) },
});
