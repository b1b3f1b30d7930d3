// Route definitions of deployments: the keyed management API and the two public endpoints the elements call.
import { z } from '@hono/zod-openapi';
import { JsonPatch } from '../../platform/http/json-patch.js';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import { startFailures } from '../conversations/routes.js';
import { ConversationCreated } from '../conversations/schemas.js';
import { codesWithStatus } from './refusals.js';
import {
  CreateDeployment,
  Deployment,
  DeploymentId,
  DeploymentInit,
  DeploymentList,
  GateCheck,
  GatePassed,
  ListQuery,
  StartDeployment,
} from './schemas.js';

const tags = ['Deployments'];
const params = z.object({ deployment_id: DeploymentId });
const etag = {
  ETag: { description: 'Version of the deployment; send it back as If-Match when patching', schema: { type: 'string' as const } },
};
const Deleted = z.object({ deleted: z.literal(true) });

export const create = keyedRoute({
  method: 'post',
  path: '/v2/deployments',
  tags,
  summary: 'Create a deployment (status draft)',
  request: jsonBody(CreateDeployment),
  responses: { 200: { ...json(Deployment, 'Deployment created'), headers: etag }, ...errors(400) },
});
export const list = keyedRoute({
  method: 'get',
  path: '/v2/deployments',
  tags,
  summary: 'List your deployments (newest first)',
  request: { query: ListQuery },
  responses: { 200: json(DeploymentList, 'Deployments'), ...errors(400) },
});
export const get = keyedRoute({
  method: 'get',
  path: '/v2/deployments/{deployment_id}',
  tags,
  summary: 'Get a deployment',
  request: { params },
  responses: { 200: { ...json(Deployment, 'Deployment'), headers: etag }, ...errors(400, 404) },
});
export const patch = keyedRoute({
  method: 'patch',
  path: '/v2/deployments/{deployment_id}',
  tags,
  summary: 'Change a deployment with a JSON Patch',
  description:
    'RFC 6902 operations on the deployment document as GET returns it. Writable: pal_id, channel, status (draft/active/inactive), name, customization, limits, allowed_origins, and the write-only /password (add/replace sets it, remove or null clears it). Read-only fields are refused. With If-Match, a stale ETag answers 412.',
  request: {
    params,
    headers: z.object({ 'if-match': z.string().max(500).optional().openapi({ description: 'ETag from a previous read' }) }),
    ...jsonBody(JsonPatch),
  },
  responses: { 200: { ...json(Deployment, 'Updated deployment'), headers: etag }, ...errors(400, 404, 412) },
});
export const remove = keyedRoute({
  method: 'delete',
  path: '/v2/deployments/{deployment_id}',
  tags,
  summary: 'Delete a deployment',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 404) },
});

const publicTags = ['Deployments (public)'];
export const init = publicRoute({
  method: 'get',
  path: '/v2/deployments/{deployment_id}/init',
  tags: publicTags,
  summary: 'Configuration an element loads on mount (no API key)',
  description:
    "Never contains the PAL id or any secret. A widget or embed with `allowed_origins` loads only on those origins (and the service's own): a page elsewhere gets 403 `origin_not_allowed`. CORS: the Origin is reflected so the refusal is readable.",
  request: { params },
  responses: { 200: json(DeploymentInit, 'Init configuration'), ...errors(400, 403, 404) },
});

export const gate = publicRoute({
  method: 'post',
  path: '/v2/deployments/{deployment_id}/gate',
  tags: publicTags,
  summary: "Check a visitor's password (and captcha) at the password step (no API key)",
  description:
    'What the elements call when the visitor submits the password, so a wrong one is said at once. Checks, in order: the deployment exists (404 deployment_not_found), is active (403 deployment_inactive), the Origin (403 origin_not_allowed); the captcha when enabled (403 captcha_required / captcha_failed); the password when set (403 password_required / invalid_password), under the same per-address lockout as start (429 too_many_attempts with Retry-After). ' +
    'Answers a gate pass for start, valid 15 minutes and ended by a password change.',
  request: { params, ...jsonBody(GateCheck) },
  responses: { 200: json(GatePassed, 'Passed'), ...errors(400, 403, 404, 429) },
});

export const start = publicRoute({
  method: 'post',
  path: '/v2/deployments/{deployment_id}/start',
  tags: publicTags,
  summary: 'Start a conversation from a deployment (no API key)',
  description:
    "Checks, in order: the deployment exists (404 deployment_not_found); it is active (403 deployment_inactive); the Origin is allowed for widget and embed (403 origin_not_allowed); unless a valid `gate_pass` is given, the captcha when enabled (403 captcha_required / captcha_failed) and then the password (403 password_required / invalid_password; repeated failures from one address are slowed, then 429 too_many_attempts with Retry-After); the limits (429 daily_limit / total_limit / busy); memory_stores must not name a memory store (400). `pal_id` is a preview override that needs the owner's x-api-key (403 preview_requires_owner_key otherwise). " +
    'The `error` of a refusal is one of these codes, or `code: detail`: ' +
    [400, 403, 404, 429, 502, 503].map((status) => `${status} ${codesWithStatus(status)}`).join('; ') +
    '.',
  request: { params, ...jsonBody(StartDeployment) },
  responses: { 200: json(ConversationCreated, 'Conversation created'), ...errors(400, 403, 404, 429), ...startFailures },
});
