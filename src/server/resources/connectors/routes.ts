import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import {
  AuthorizationAddress,
  AuthorizeBody,
  CallbackQuery,
  Connector,
  ConnectorId,
  ConnectorTools,
  CreateConnector,
  ListQuery,
  UpdateConnector,
} from './schemas.js';

const tags = ['Connectors'];
const params = z.object({ connector_id: ConnectorId });
const Deleted = z.object({ deleted: z.literal(true) });
const optionalBody = <T extends z.ZodType>(schema: T) => ({ body: { required: false, content: { 'application/json': { schema } } } });

export const createConnector = keyedRoute({
  method: 'post',
  path: '/v2/connectors',
  tags,
  summary: 'Register an MCP tool server; tools are imported in the background (bearer/none) or once OAuth is linked',
  request: jsonBody(CreateConnector),
  responses: { 200: json(Connector, 'Connector'), ...errors(400) },
});
export const listConnectors = keyedRoute({
  method: 'get',
  path: '/v2/connectors',
  tags,
  summary: 'List your connectors, newest first, paged',
  request: { query: ListQuery },
  responses: {
    200: json(
      z.object({ data: z.array(Connector), total_count: z.number().int(), page: z.number().int(), limit: z.number().int() }),
      'One page',
    ),
    ...errors(400),
  },
});
export const getConnector = keyedRoute({
  method: 'get',
  path: '/v2/connectors/{connector_id}',
  tags,
  summary: 'Get a connector (secrets are never returned)',
  request: { params },
  responses: { 200: json(Connector, 'Connector'), ...errors(400, 403, 404) },
});
export const updateConnector = keyedRoute({
  method: 'patch',
  path: '/v2/connectors/{connector_id}',
  tags,
  summary: 'Change name, server_url or auth_config (only sent fields change; selected_tool_names is rejected)',
  request: { params, ...jsonBody(UpdateConnector) },
  responses: { 200: json(Connector, 'Connector'), ...errors(400, 403, 404) },
});
export const deleteConnector = keyedRoute({
  method: 'delete',
  path: '/v2/connectors/{connector_id}',
  tags,
  summary: 'Delete a connector; PALs referencing it through layers.mcp are cleaned',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 403, 404) },
});
export const importTools = keyedRoute({
  method: 'post',
  path: '/v2/connectors/{connector_id}/tools/import',
  tags,
  summary: 'Import the tools of the connector server now (sets last_indexed_at or last_index_error)',
  request: { params },
  responses: {
    200: json(ConnectorTools, 'Imported tools'),
    ...errors(400, 403, 404, 409),
    502: json(z.object({ error: z.string() }), 'The connector server could not be reached or refused; last_index_error says why'),
  },
});
export const listTools = keyedRoute({
  method: 'get',
  path: '/v2/connectors/{connector_id}/tools',
  tags,
  summary: 'Tools imported from the connector server (name, description, input_schema)',
  request: { params },
  responses: { 200: json(ConnectorTools, 'Imported tools'), ...errors(400, 403, 404) },
});
export const authorize = keyedRoute({
  method: 'post',
  path: '/v2/connectors/{connector_id}/authorize',
  tags,
  summary: 'Start OAuth 2.0 (authorization code + PKCE S256): returns the address to open in a browser; oauth_status becomes pending',
  request: { params, ...optionalBody(AuthorizeBody) },
  responses: { 200: json(AuthorizationAddress, 'Authorization address'), ...errors(400, 403, 404, 409) },
});
export const reconnect = keyedRoute({
  method: 'post',
  path: '/v2/connectors/{connector_id}/reconnect',
  tags,
  summary: 'Reconnect OAuth: drop the stored tokens and return a new authorization address (remedy for needs_reauth)',
  request: { params, ...optionalBody(AuthorizeBody) },
  responses: { 200: json(AuthorizationAddress, 'Authorization address'), ...errors(400, 403, 404, 409) },
});
export const oauthCallback = publicRoute({
  method: 'get',
  path: '/v2/connectors/oauth/callback',
  tags,
  summary: 'OAuth redirect endpoint (public): exchanges the code, stores the tokens, oauth_status becomes linked',
  request: { query: CallbackQuery },
  responses: {
    200: { description: 'Linked; a short page for the browser', content: { 'text/html': { schema: z.string() } } },
    302: { description: 'Linked; redirect to the return_url given at authorize, with connector_id and oauth_status' },
    ...errors(400),
  },
});
