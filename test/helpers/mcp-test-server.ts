// A real MCP server on loopback for connector tests: the SDK's McpServer over Streamable HTTP (stateless)
// on a node http server, three tools, every request required to carry an accepted bearer token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpTestServer {
  url: string;
  /** Bearer tokens seen on requests, in order (accepted or not). */
  seenTokens: string[];
  /** Replace to change which tokens are accepted. */
  accept: (token: string) => boolean;
  close(): Promise<void>;
}

/** `booking`: also `book_table`, whose result is structured content (`{booking_id}`), as a booking API's would be. */
function buildServer(booking = false): McpServer {
  const server = new McpServer({ name: 'palkit-test-tools', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    { description: 'Current weather for a city', inputSchema: { city: z.string().describe('City name') } },
    async ({ city }) => ({
      content: [{ type: 'text', text: `Sunny in ${city}` }],
    }),
  );
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('ping', { description: 'Answers pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  if (booking) {
    server.registerTool(
      'book_table',
      { description: 'Books a table', inputSchema: { name: z.string() }, outputSchema: { booking_id: z.string() } },
      async ({ name }) => {
        const result = { booking_id: `bk-${name.toLowerCase()}` };
        return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
      },
    );
  }
  return server;
}

/** `wellKnown` serves JSON documents without authentication (e.g. OAuth discovery metadata). */
export async function startMcpTestServer(
  accept: (token: string) => boolean,
  wellKnown: Record<string, unknown> = {},
  options: { booking?: boolean } = {},
): Promise<McpTestServer> {
  const state: McpTestServer = { url: '', seenTokens: [], accept, close: async () => undefined };
  const http: Server = createServer(async (req, res) => {
    const doc = wellKnown[new URL(req.url ?? '/', 'http://x').pathname];
    if (doc !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
      return;
    }
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token) state.seenTokens.push(token);
    if (!token || !state.accept(token)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' });
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = buildServer(options.booking);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise<void>((r) => {
      http.closeAllConnections();
      http.close(() => r());
    });
  return state;
}
