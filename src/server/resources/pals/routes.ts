// Route definitions of PALs under /v2/pals (pal_id) and the legacy /v2/personas (persona_id).
import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import { JsonPatch } from '../../platform/http/json-patch.js';
import { PageQuery, Pal, PalCreateInput, Persona, PersonaCreateInput } from './schemas.js';

const Deleted = z.object({ deleted: z.literal(true) });

function palRoutes(path: 'pals' | 'personas') {
  const base = `/v2/${path}`;
  const idName = path === 'pals' ? 'pal_id' : 'persona_id';
  const one = `${base}/{${idName}}`;
  const tags = path === 'pals' ? ['PALs'] : ['Personas (legacy names)'];
  const View = path === 'pals' ? Pal : Persona;
  const params = z.object({
    [idName]: z
      .string()
      .min(1)
      .max(64)
      .openapi({ param: { name: idName, in: 'path' }, example: 'p5k2j9s8d7f6g4' }),
  });
  return {
    create: keyedRoute({
      method: 'post',
      path: base,
      tags,
      summary: path === 'pals' ? 'Create a PAL' : 'Create a persona (legacy alias of POST /v2/pals; default_replica_id optional)',
      request: jsonBody(path === 'pals' ? PalCreateInput : PersonaCreateInput),
      responses: { 200: json(View, 'Created'), ...errors(400, 409) },
    }),
    list: keyedRoute({
      method: 'get',
      path: base,
      tags,
      summary: `List your ${path} (newest first, paged)`,
      request: { query: PageQuery },
      responses: { 200: json(z.object({ data: z.array(View), total_count: z.number().int() }), 'One page'), ...errors(400) },
    }),
    get: keyedRoute({
      method: 'get',
      path: one,
      tags,
      summary: `Get a ${path === 'pals' ? 'PAL' : 'persona'}`,
      request: { params },
      responses: { 200: json(View, 'The document'), ...errors(400, 404) },
    }),
    patch: keyedRoute({
      method: 'patch',
      path: one,
      tags,
      summary: 'Change with a JSON Patch over the shown document (the result is checked like a create)',
      request: { params, ...jsonBody(JsonPatch) },
      responses: { 200: json(View, 'Changed'), ...errors(400, 404, 409) },
    }),
    delete: keyedRoute({
      method: 'delete',
      path: one,
      tags,
      summary: 'Delete (its skill attachments go with it)',
      description: 'Refused with 409, naming them, while deployments use the PAL: delete them or point them at another PAL first.',
      request: { params },
      responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 404, 409) },
    }),
  };
}

export const pals = palRoutes('pals');
export const personas = palRoutes('personas');
