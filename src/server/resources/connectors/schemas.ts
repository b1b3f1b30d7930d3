// Wire shapes of connectors. Secrets (bearer token, client secret) are accepted and never returned.
import { z } from '@hono/zod-openapi';

const Url = z.string().trim().min(1).max(2048);
const Scope = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be a single OAuth scope token');

export const BearerAuth = z
  .object({
    type: z.literal('bearer'),
    token: z
      .string()
      .min(1)
      .max(8192)
      .optional()
      .openapi({ description: 'Write-only. Required on create; omit on update to keep the stored one' }),
  })
  .strict();
export const OAuth2Auth = z
  .object({
    type: z.literal('oauth2'),
    client_id: z.string().trim().min(1).max(512),
    client_secret: z
      .string()
      .min(1)
      .max(4096)
      .nullable()
      .optional()
      .openapi({ description: 'Write-only. Omit on update to keep the stored one; null removes it' }),
    authorization_url: Url.optional().openapi({
      description: 'Discovered from /.well-known/oauth-authorization-server of the server origin when absent',
    }),
    token_url: Url.optional().openapi({ description: 'Discovered like authorization_url when absent' }),
    scopes: z.array(Scope).max(50).optional(),
  })
  .strict();
export const NoAuth = z.object({ type: z.literal('none') }).strict();
export const AuthConfigInput = z.discriminatedUnion('type', [BearerAuth, OAuth2Auth, NoAuth]).openapi('ConnectorAuthConfigInput');
export type AuthConfigInput = z.infer<typeof AuthConfigInput>;

const rejectedToolNames = z
  .unknown()
  .optional()
  .openapi({ description: 'Rejected: always null. Scope tools per PAL with layers.mcp.connector_tools' });

export const CreateConnector = z
  .object({
    name: z.string().trim().min(1).max(200),
    source: z.literal('mcp').default('mcp'),
    server_url: Url.openapi({ description: 'https, or http for loopback addresses the service may reach' }),
    auth_config: AuthConfigInput.default({ type: 'none' }),
    selected_tool_names: rejectedToolNames,
  })
  .strict()
  .openapi('CreateConnector');

export const UpdateConnector = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    server_url: Url.optional(),
    auth_config: AuthConfigInput.optional(),
    selected_tool_names: rejectedToolNames,
  })
  .strict()
  .openapi('UpdateConnector', { description: 'Only sent fields change. A changed server_url takes effect on the next conversation.' });

export const Connector = z
  .object({
    connector_id: z.string().openapi({ example: 'c8x2k…' }),
    owner_id: z.number().int(),
    team_id: z.string().nullable(),
    name: z.string(),
    source: z.literal('mcp'),
    server_url: z.string(),
    auth_config: z
      .object({
        type: z.enum(['none', 'bearer', 'oauth2']),
        client_id: z.string().optional(),
        authorization_url: z.string().optional(),
        token_url: z.string().optional(),
        scopes: z.array(z.string()).optional(),
      })
      .openapi({ description: 'type and non-secret fields only' }),
    selected_tool_names: z.null(),
    oauth_status: z.enum(['none', 'pending', 'linked', 'needs_reauth']).openapi({
      description:
        '`none`: the connector does not use OAuth (auth_config.type `none` or `bearer`). ' +
        '`pending`: an OAuth connector that holds no grant yet: created and not yet authorized, an authorization address issued and unfinished, ' +
        'or a first authorization that was denied, expired or refused (authorize again). ' +
        '`linked`: a working token is held. ' +
        '`needs_reauth`: an OAuth connector that had been linked lost its grant (refresh refused, reconnect started and not finished, or its OAuth client changed); the remedy is Reconnect OAuth.',
    }),
    oauth_scopes: z.array(z.string()),
    access_token_expires_at: z
      .string()
      .optional()
      .openapi({ description: 'When the held access token expires; omitted while none is held (or it does not expire)' }),
    last_indexed_at: z.string().nullable(),
    last_index_error: z.string().nullable(),
    created_at: z.string().openapi({ example: '2026-11-21T05:30:00.123' }),
    updated_at: z.string().openapi({ example: '2026-11-21T05:30:00.123' }),
  })
  .openapi('Connector');

export const ConnectorTool = z
  .object({ name: z.string(), description: z.string().nullable(), input_schema: z.record(z.string(), z.unknown()) })
  .openapi('ConnectorTool');

export const ConnectorTools = z
  .object({
    connector_id: z.string(),
    last_indexed_at: z.string().nullable(),
    last_index_error: z.string().nullable(),
    data: z.array(ConnectorTool),
  })
  .openapi('ConnectorTools');

export const AuthorizeBody = z
  .object({
    return_url: Url.optional().openapi({
      description: 'Where the browser is sent after the OAuth callback (with connector_id and oauth_status added)',
    }),
  })
  .strict()
  .openapi('ConnectorAuthorize');

export const AuthorizationAddress = z.object({ authorization_url: z.string() }).openapi('ConnectorAuthorizationAddress');

export const ConnectorId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^c[a-z0-9]+$/, 'must be a connector id (c…)')
  .openapi({ param: { name: 'connector_id', in: 'path' } });

export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().openapi({ description: 'Page number, from 1 (default 1)' }),
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Page size (default 50, at most 100)' }),
});

export const CallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
