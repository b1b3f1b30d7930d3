// The MCP tools a PAL may call in a conversation: the tools of each connector in `layers.mcp.connectors`
// (only the names in `layers.mcp.connector_tools[connector_id]` when that is given), listed from the
// connector's server when the conversation starts — so a changed `server_url` or tool set takes effect on
// the next conversation — and called through the MCP SDK with the connector's credentials; plus the
// service's own function for the PAL's objectives (objectives.ts).
import type { ServiceDeps } from '../../platform/context.js';
import { listServerTools, withConnectorClient } from '../../resources/connectors/mcp-client.js';
import type { ConnectorRow } from '../../resources/connectors/repository.js';
import { isRecord, type LiveConversation } from '../../resources/conversations/live-conversation.js';
import type { LlmTool } from './llm.js';
import { captureFromToolResult, objectivesTool, type LocalTool } from './objectives.js';

/** Most tools offered to the model in one conversation, and most text of one result passed back to it. */
const MAX_TOOLS = 64;
const MAX_RESULT_CHARS = 8_000;
const CALL_TIMEOUT_MS = 20_000;

interface McpTool {
  /** The function name the model sees (the MCP name, made unique across connectors). */
  name: string;
  mcpName: string;
  connector: ConnectorRow;
  definition: LlmTool;
}

type PalTool = McpTool | (LocalTool & { local: true });

export interface ToolOutcome {
  ok: boolean;
  /** What the model is told: the tool's text content, or why the call failed. */
  output: string;
}

/** A function name the chat completions API accepts: ^[a-zA-Z0-9_-]{1,64}$. */
function functionName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base.slice(0, 58)}_${n}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The description the model sees: the connector's name first — the label of the service the tool
 * belongs to (the spec's connector `name`) — then the tool's own description.
 */
function labelled(connectorName: string, description: string | null | undefined): string {
  const label = connectorName.replace(/\s+/g, ' ').trim().slice(0, 100);
  return (description?.trim() ? `${label}: ${description.trim()}` : label).slice(0, 1024);
}

function mcpLayer(conv: LiveConversation): { connectors: string[]; scope: Record<string, string[]> } {
  const layers = conv.pal.definition.layers;
  const mcp = isRecord(layers) && isRecord(layers.mcp) ? layers.mcp : {};
  const connectors = Array.isArray(mcp.connectors) ? mcp.connectors.filter((c): c is string => typeof c === 'string') : [];
  const scope = isRecord(mcp.connector_tools) ? (mcp.connector_tools as Record<string, string[]>) : {};
  return { connectors: [...new Set(connectors)], scope };
}

export class PalTools {
  private constructor(
    private readonly deps: ServiceDeps,
    private readonly conversationId: string,
    private readonly tools: Map<string, PalTool>,
  ) {}

  static none(deps: ServiceDeps, conversationId: string): PalTools {
    return new PalTools(deps, conversationId, new Map());
  }

  /**
   * Lists the tools of the PAL's connectors. A connector that is gone, belongs to someone else, or whose
   * server cannot be reached is left out (and logged): the PAL goes on without it.
   */
  static async load(deps: ServiceDeps, conv: LiveConversation): Promise<PalTools> {
    const tools = new Map<string, PalTool>();
    const taken = new Set<string>();
    const objectives = await objectivesTool(deps, conv.conversationId);
    if (objectives) {
      tools.set(objectives.definition.function.name, { ...objectives, local: true });
      taken.add(objectives.definition.function.name);
    }
    const { connectors, scope } = mcpLayer(conv);
    if (!connectors.length) return new PalTools(deps, conv.conversationId, tools);
    const rows = await deps.db
      .selectFrom('connectors')
      .selectAll()
      .where('connector_id', 'in', connectors)
      .where('owner_id', '=', conv.ownerId)
      .execute();
    const listed = await Promise.all(
      rows.map(async (row) => {
        try {
          return { row, tools: await withConnectorClient(deps, row, listServerTools) };
        } catch (error) {
          deps.log.error('connector tools could not be listed for a conversation', {
            conversation_id: conv.conversationId,
            connector_id: row.connector_id,
            error: error instanceof Error ? error.message : String(error),
          });
          return { row, tools: [] };
        }
      }),
    );
    // In the PAL's order of connectors, so names are made unique the same way every time.
    for (const id of connectors) {
      const entry = listed.find((l) => l.row.connector_id === id);
      if (!entry) continue;
      const allowed = Array.isArray(scope[id]) ? new Set(scope[id]) : null;
      for (const tool of entry.tools) {
        if (allowed && !allowed.has(tool.name)) continue;
        if (tools.size >= MAX_TOOLS) break;
        const name = functionName(tool.name, taken);
        const parameters =
          isRecord(tool.input_schema) && tool.input_schema.type === 'object' ? tool.input_schema : { type: 'object', properties: {} };
        tools.set(name, {
          name,
          mcpName: tool.name,
          connector: entry.row,
          definition: { type: 'function', function: { name, description: labelled(entry.row.name, tool.description), parameters } },
        });
      }
    }
    return new PalTools(deps, conv.conversationId, tools);
  }

  /** The tools as the chat completions request lists them. */
  get definitions(): LlmTool[] {
    return [...this.tools.values()].map((t) => t.definition);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Calls a tool the model asked for; never throws (a failure is an outcome the model is told about). */
  async call(name: string, argumentsJson: string, signal: AbortSignal): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) return { ok: false, output: `There is no tool named ${name}.` };
    let args: unknown;
    try {
      args = argumentsJson.trim() ? JSON.parse(argumentsJson) : {};
    } catch {
      return { ok: false, output: 'The arguments were not valid JSON.' };
    }
    if (!isRecord(args)) return { ok: false, output: 'The arguments must be a JSON object.' };
    if ('local' in tool) return tool.run(args);
    try {
      const result = await withConnectorClient(
        this.deps,
        tool.connector,
        (client) =>
          client.callTool({ name: tool.mcpName, arguments: args as Record<string, unknown> }, undefined, {
            timeout: CALL_TIMEOUT_MS,
            signal,
          }),
        signal,
      );
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content
        .map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
        .join('\n');
      const output = (text || (result.structuredContent ? JSON.stringify(result.structuredContent) : '')).slice(0, MAX_RESULT_CHARS);
      if (result.isError !== true)
        await captureFromToolResult(this.deps, this.conversationId, result.structuredContent ?? parsedObject(text));
      return { ok: result.isError !== true, output };
    } catch (error) {
      if (signal.aborted) throw error;
      this.deps.log.error('connector tool call failed', {
        conversation_id: this.conversationId,
        connector_id: tool.connector.connector_id,
        tool: tool.mcpName,
        error: error instanceof Error ? error.message : String(error),
      });
      return { ok: false, output: `The tool ${name} could not be reached.` };
    }
  }
}

function parsedObject(text: string): unknown {
  try {
    return text.trim().startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
