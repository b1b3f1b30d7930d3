// An MCP client session with a connector's server (Streamable HTTP), authenticated with the connector's
// credentials and reaching the network only through the guarded fetch. Conversations use
// `withConnectorClient` to call tools; tool import uses it to list them. The SDK is loaded with the first
// session (it adds a quarter second to the service's start).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { GuardedFetchOptions } from '../../platform/net/guarded-fetch.js';
import { connectorAuthorization } from './access.js';
import { ownedConnector, type ConnectorRow } from './repository.js';

type Deps = Pick<ServiceDeps, 'db' | 'fetch' | 'config' | 'secrets' | 'clock'>;

const CLIENT_INFO = { name: 'palkit', version: '2.0.0' };

function isUnauthorized(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 401;
}

async function open(deps: Deps, row: ConnectorRow, signal: AbortSignal | undefined, forceRefresh: boolean): Promise<Client> {
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const authorization = await connectorAuthorization(deps, row, forceRefresh);
  const fetchThroughGuard = (url: string | URL, init?: RequestInit) => {
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => Boolean(s));
    const options = {
      ...init,
      redirect: init?.redirect === 'follow' ? 'follow' : 'manual',
      ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
    };
    return deps.fetch(url, options as GuardedFetchOptions);
  };
  const transport = new StreamableHTTPClientTransport(new URL(row.server_url), {
    fetch: fetchThroughGuard,
    requestInit: { headers: authorization ? { authorization } : {} },
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport, { timeout: 15_000 });
  return client;
}

/**
 * Runs `fn` with a connected client and closes it afterwards. For OAuth connectors a 401 from the
 * server triggers one forced token refresh and a retry (the token may have been revoked early).
 */
export async function withConnectorClient<T>(
  deps: Deps,
  row: ConnectorRow,
  fn: (client: Client) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let client: Client | undefined;
    try {
      client = await open(deps, row, signal, attempt > 0);
      return await fn(client);
    } catch (error) {
      if (attempt === 0 && row.auth_type === 'oauth2' && isUnauthorized(error)) continue;
      throw error;
    } finally {
      await client?.close().catch(() => undefined);
    }
  }
}

/** The same for a connector named by id (403/404 ApiErrors as for the API), e.g. from a conversation. */
export async function withOwnedConnectorClient<T>(
  deps: Deps,
  ownerId: number,
  connectorId: string,
  fn: (client: Client) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return withConnectorClient(deps, await ownedConnector(deps.db, ownerId, connectorId), fn, signal);
}

export interface ImportedTool {
  name: string;
  description: string | null;
  input_schema: Record<string, unknown>;
}

/** Every tool the server lists (following pagination, at most 20 pages). */
export async function listServerTools(client: Client): Promise<ImportedTool[]> {
  const tools: ImportedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: 15_000 });
    for (const tool of result.tools)
      tools.push({ name: tool.name, description: tool.description ?? null, input_schema: tool.inputSchema as Record<string, unknown> });
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}
