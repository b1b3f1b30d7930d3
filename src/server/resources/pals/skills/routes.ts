// Route definitions of PAL skills (/v2/pals/{pal_id}/skills…) and the registry (/v2/skills).
import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../../platform/http/openapi.js';

const tags = ['PAL skills'];
const Config = z.record(z.string(), z.unknown()).openapi({ description: 'Shape depends on the skill (see GET /v2/skills)' });

export const SkillAttachment = z
  .object({
    skill_id: z.string(),
    config: Config,
    attached_at: z.string().openapi({ example: '2026-11-21T05:30:00.123000+00:00' }),
    updated_at: z.string().openapi({ example: '2026-11-21T05:30:00.123000+00:00' }),
  })
  .openapi('SkillAttachment');
const AttachmentMap = z.object({ data: z.record(z.string(), SkillAttachment) }).openapi('SkillAttachments');

const palParams = z.object({
  pal_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'pal_id', in: 'path' } }),
});
const skillParams = palParams.extend({
  skill_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'skill_id', in: 'path' }, example: 'magic_canvas' }),
});
const AttachBody = z.object({ config: Config.optional() }).strict().openapi('AttachSkill');

export const attach = keyedRoute({
  method: 'put',
  path: '/v2/pals/{pal_id}/skills/{skill_id}',
  tags,
  summary: 'Attach a skill or replace its config (effective from the next conversation)',
  request: {
    params: skillParams,
    body: { required: false, content: { 'application/json': { schema: AttachBody } }, description: '{config} or no body' },
  },
  responses: { 200: json(SkillAttachment, 'Attached'), ...errors(400, 404) },
});
export const getOne = keyedRoute({
  method: 'get',
  path: '/v2/pals/{pal_id}/skills/{skill_id}',
  tags,
  summary: 'Get a skill attachment',
  request: { params: skillParams },
  responses: { 200: json(SkillAttachment, 'Attachment'), ...errors(400, 404) },
});
export const list = keyedRoute({
  method: 'get',
  path: '/v2/pals/{pal_id}/skills',
  tags,
  summary: 'List the skills attached to a PAL',
  request: { params: palParams },
  responses: { 200: json(AttachmentMap, 'Attachments by skill_id'), ...errors(400, 404) },
});
export const merge = keyedRoute({
  method: 'patch',
  path: '/v2/pals/{pal_id}/skills/{skill_id}',
  tags,
  summary: 'Merge a partial config into an attached skill (JSON Merge Patch: null removes a key)',
  request: { params: skillParams, ...jsonBody(z.object({ config: Config }).strict().openapi('MergeSkillConfig')) },
  responses: { 200: json(SkillAttachment, 'Updated'), ...errors(400, 404) },
});
export const detach = keyedRoute({
  method: 'delete',
  path: '/v2/pals/{pal_id}/skills/{skill_id}',
  tags,
  summary: 'Detach a skill (it stays in the registry)',
  request: { params: skillParams },
  responses: { 200: json(z.object({ skill_id: z.string(), deleted: z.literal(true) }), 'Detached'), ...errors(400, 404) },
});
export const replaceAll = keyedRoute({
  method: 'put',
  path: '/v2/pals/{pal_id}/skills',
  tags,
  summary: 'Replace the whole set of skills (absent ones are detached)',
  request: {
    params: palParams,
    ...jsonBody(
      z
        .object({ skills: z.record(z.string(), AttachBody) })
        .strict()
        .openapi('ReplaceSkills'),
    ),
  },
  responses: { 200: json(AttachmentMap, 'The new set'), ...errors(400, 404) },
});
export const registry = keyedRoute({
  method: 'get',
  path: '/v2/skills',
  tags,
  summary: 'List the skill registry',
  responses: {
    200: json(
      z
        .object({
          data: z.array(
            z.object({ skill_id: z.string(), name: z.string(), description: z.string(), config_schema: z.record(z.string(), z.unknown()) }),
          ),
        })
        .openapi('SkillRegistry'),
      'Skills',
    ),
  },
});
