import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import { describeZodError } from '../../platform/http/errors.js';
import type { AppEnv } from '../../platform/http/app-env.js';
import { JsonPatch } from '../../platform/http/json-patch.js';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import {
  CreateGuardrail,
  CreateGuardrailsBody,
  CreateGuardrailSet,
  Guardrail,
  GuardrailId,
  GuardrailSet,
  GuardrailSetCreated,
  ListQuery,
  PatchGuardrailsBody,
  UpdateGuardrail,
} from './schemas.js';

const tags = ['Guardrails'];
const params = z.object({ guardrails_id: GuardrailId });
const Deleted = z.object({ deleted: z.literal(true) });

/**
 * The create and patch bodies have two shapes; this validates the body against the one it claims to be
 * before the route's union validator runs, so a bad body gets a message about its own form.
 */
function validateShape(pick: (body: unknown) => ZodType): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return next(); // malformed JSON: the route validator answers it
    }
    const result = pick(body).safeParse(body);
    if (!result.success) return c.json({ error: describeZodError(result.error as ZodError) }, 400);
    return next();
  };
}

const pickCreate = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body) && 'guardrail_name' in body ? CreateGuardrail : CreateGuardrailSet;
const pickPatch = (body: unknown) => (Array.isArray(body) ? JsonPatch : UpdateGuardrail);

export const createGuardrails = keyedRoute({
  method: 'post',
  path: '/v2/guardrails',
  tags,
  summary: 'Create an individual guardrail (body with guardrail_name) or a deprecated guardrail set (body with name and data)',
  middleware: [validateShape(pickCreate)],
  request: jsonBody(CreateGuardrailsBody),
  responses: {
    200: json(
      z.union([Guardrail, GuardrailSetCreated]),
      'The guardrail, or for the set form {guardrails_id, guardrails_name, status, created_at}',
    ),
    ...errors(400),
  },
});

const SetListed = GuardrailSet.extend({ created_at: z.string(), updated_at: z.string() }).openapi('GuardrailSetListed');
export const listGuardrails = keyedRoute({
  method: 'get',
  path: '/v2/guardrails',
  tags,
  summary: 'List guardrail sets (legacy=true, default) or individual guardrails (legacy=false), newest first, paged',
  request: { query: ListQuery },
  responses: {
    200: json(
      z.object({
        data: z.union([z.array(SetListed), z.array(Guardrail)]),
        total_count: z.number().int(),
        page: z.number().int(),
        limit: z.number().int(),
      }),
      'One page',
    ),
    ...errors(400),
  },
});

export const getGuardrails = keyedRoute({
  method: 'get',
  path: '/v2/guardrails/{guardrails_id}',
  tags,
  summary: 'Get a guardrail set ({uuid, name, data}) or an individual guardrail, by identifier',
  request: { params },
  responses: { 200: json(z.union([GuardrailSet, Guardrail]), 'Set document or guardrail'), ...errors(400, 403, 404) },
});

export const patchGuardrails = keyedRoute({
  method: 'patch',
  path: '/v2/guardrails/{guardrails_id}',
  tags,
  summary:
    'Change a guardrail set (JSON Patch over {name, data}; item uuids survive field edits, moves and removes, a whole-item replace gets a new uuid) or an individual guardrail',
  middleware: [validateShape(pickPatch)],
  request: { params, ...jsonBody(PatchGuardrailsBody) },
  responses: { 200: json(z.union([GuardrailSet, Guardrail]), 'The updated set document or guardrail'), ...errors(400, 403, 404) },
});

export const deleteGuardrails = keyedRoute({
  method: 'delete',
  path: '/v2/guardrails/{guardrails_id}',
  tags,
  summary: 'Delete a guardrail set with its items, or an individual guardrail; PALs referencing them are cleaned',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 403, 404) },
});

export const listTags = keyedRoute({
  method: 'get',
  path: '/v2/guardrails/tags',
  tags,
  summary: 'Tags in use on your guardrails, with how many guardrails carry each',
  responses: { 200: json(z.object({ data: z.array(z.object({ tag: z.string(), count: z.number().int() })) }), 'Tags') },
});
