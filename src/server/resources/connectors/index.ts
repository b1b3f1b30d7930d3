// Connectors: external MCP tool servers a PAL can use (layers.mcp.connectors), with bearer or OAuth 2.0
// credentials kept encrypted and write-only, tool import, and the OAuth authorize/callback/reconnect flow.
import type { ResourceModule } from '../module.js';
import type { ServiceDeps } from '../../platform/context.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoNoZone } from '../../platform/time.js';
import { authColumns } from './auth-config.js';
import { completeAuthorization, startAuthorization } from './oauth-flow.js';
import { detachConnectorFromPals } from './pal-cleanup.js';
import { connectorView, ownedConnector } from './repository.js';
import * as routes from './routes.js';
import { canImport, IMPORT_JOB, importJob, importTools } from './tools.js';
import { checkConnectorUrl } from './url-policy.js';

const rejectToolNames = (body: object) => {
  if ('selected_tool_names' in body)
    throw badRequest(
      'invalid_request: selected_tool_names: cannot be set (always null); scope tools per PAL with layers.mcp.connector_tools',
    );
};

async function toolsView(deps: ServiceDeps, connectorId: string) {
  const row = await deps.db
    .selectFrom('connectors')
    .select(['last_indexed_at', 'last_index_error'])
    .where('connector_id', '=', connectorId)
    .executeTakeFirstOrThrow();
  const tools = await deps.db
    .selectFrom('connector_tools')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .orderBy('position')
    .execute();
  return {
    connector_id: connectorId,
    last_indexed_at: row.last_indexed_at ? isoNoZone(row.last_indexed_at) : null,
    last_index_error: row.last_index_error,
    data: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
  };
}

const linkedPage = (connectorId: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connector linked</title></head><body style="font-family:system-ui;margin:3rem"><h1>Connector linked</h1><p>Connector ${connectorId} can now be used. You can close this window.</p></body></html>`;

export const connectorsModule: ResourceModule = {
  name: 'connectors',
  jobs: (deps) => ({ [IMPORT_JOB]: importJob(deps) }),
  routes(app, deps) {
    const { db, clock, config, secrets, jobs } = deps;

    app.openapi(routes.oauthCallback, async (c) => {
      const result = await completeAuthorization(deps, c.req.valid('query'));
      if (result.returnUrl) {
        const back = new URL(result.returnUrl);
        back.searchParams.set('connector_id', result.connectorId);
        back.searchParams.set('oauth_status', 'linked');
        return c.redirect(back.toString(), 302);
      }
      return c.html(linkedPage(result.connectorId), 200);
    });

    app.openapi(routes.createConnector, async (c) => {
      const body = c.req.valid('json');
      rejectToolNames(body);
      const serverUrl = checkConnectorUrl('server_url', body.server_url, config.outboundAllow);
      const { columns } = authColumns(body.auth_config, undefined, secrets, config.outboundAllow);
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('connectors')
          .values({
            connector_id: newId('c', 14),
            owner_id: c.get('ownerId'),
            team_id: null,
            name: body.name,
            source: 'mcp',
            server_url: serverUrl,
            auth_type: 'none',
            auth_settings: '{}',
            bearer_token_enc: null,
            client_secret_enc: null,
            access_token_enc: null,
            refresh_token_enc: null,
            access_token_expires_at: null,
            oauth_status: 'none',
            oauth_scopes: '[]',
            oauth_metadata: null,
            last_indexed_at: null,
            last_index_error: null,
            ...columns,
            created_at: now,
            updated_at: now,
          } as never)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (canImport(inserted)) await jobs.enqueue(IMPORT_JOB, { connector_id: inserted.connector_id }, { db: trx, maxAttempts: 1 });
        return inserted;
      });
      return c.json(connectorView(row), 200);
    });

    app.openapi(routes.listConnectors, async (c) => {
      const { page = 1, limit = 50 } = c.req.valid('query');
      const base = db.selectFrom('connectors').where('owner_id', '=', c.get('ownerId'));
      const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('connector_id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return c.json({ data: rows.map(connectorView), total_count: Number(n), page, limit }, 200);
    });

    app.openapi(routes.getConnector, async (c) =>
      c.json(connectorView(await ownedConnector(db, c.get('ownerId'), c.req.valid('param').connector_id)), 200),
    );

    app.openapi(routes.updateConnector, async (c) => {
      const { connector_id } = c.req.valid('param');
      const body = c.req.valid('json');
      rejectToolNames(body);
      const serverUrl = body.server_url === undefined ? undefined : checkConnectorUrl('server_url', body.server_url, config.outboundAllow);
      const row = await db.transaction().execute(async (trx) => {
        const current = await ownedConnector(trx, c.get('ownerId'), connector_id, true);
        const auth = body.auth_config ? authColumns(body.auth_config, current, secrets, config.outboundAllow) : undefined;
        const movedServer = serverUrl !== undefined && serverUrl !== current.server_url;
        const updated = await trx
          .updateTable('connectors')
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(serverUrl !== undefined ? { server_url: serverUrl } : {}),
            // Endpoints discovered at the old address may not apply at the new one.
            ...(movedServer ? { oauth_metadata: null } : {}),
            ...(auth?.columns ?? {}),
            updated_at: clock.now(),
          })
          .where('connector_id', '=', connector_id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (auth?.changedOAuth) await trx.deleteFrom('connector_oauth_flows').where('connector_id', '=', connector_id).execute();
        if ((movedServer || body.auth_config) && canImport(updated))
          await jobs.enqueue(IMPORT_JOB, { connector_id }, { db: trx, maxAttempts: 1 });
        return updated;
      });
      return c.json(connectorView(row), 200);
    });

    app.openapi(routes.deleteConnector, async (c) => {
      const { connector_id } = c.req.valid('param');
      const ownerId = c.get('ownerId');
      await db.transaction().execute(async (trx) => {
        await ownedConnector(trx, ownerId, connector_id, true);
        await trx.deleteFrom('connectors').where('connector_id', '=', connector_id).execute();
        await detachConnectorFromPals(trx, ownerId, connector_id, clock.now());
      });
      return c.json({ deleted: true as const }, 200);
    });

    app.openapi(routes.importTools, async (c) => {
      const row = await ownedConnector(db, c.get('ownerId'), c.req.valid('param').connector_id);
      if (!canImport(row))
        throw conflict(`connector ${row.connector_id} is not linked (oauth_status ${row.oauth_status}); authorize it first`);
      const outcome = await importTools(deps, row);
      if (!outcome.ok) {
        if (outcome.authProblem) throw conflict(`tool_import_failed: ${outcome.error}`);
        return c.json({ error: `tool_import_failed: ${outcome.error}` }, 502);
      }
      return c.json(await toolsView(deps, row.connector_id), 200);
    });

    app.openapi(routes.listTools, async (c) => {
      const row = await ownedConnector(db, c.get('ownerId'), c.req.valid('param').connector_id);
      return c.json(await toolsView(deps, row.connector_id), 200);
    });

    for (const [route, reconnect] of [
      [routes.authorize, false],
      [routes.reconnect, true],
    ] as const) {
      app.openapi(route, async (c) => {
        const body = c.req.header('content-type')?.includes('json') ? (c.req.valid('json') ?? {}) : {};
        const authorizationUrl = await startAuthorization(deps, c.get('ownerId'), c.req.valid('param').connector_id, {
          reconnect,
          ...(body.return_url !== undefined ? { returnUrl: body.return_url } : {}),
        });
        return c.json({ authorization_url: authorizationUrl }, 200);
      });
    }
  },
};
