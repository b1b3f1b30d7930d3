// Tool import: lists the tools of the connector's server and stores them as the connector's tools,
// recording when (last_indexed_at) or why not (last_index_error). Runs from the API and as a job after
// a create, a change of address or credentials, and an OAuth link.
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { ConnectorAuthError } from './access.js';
import { listServerTools, withConnectorClient, type ImportedTool } from './mcp-client.js';
import { lockedConnector, type ConnectorRow } from './repository.js';

export const IMPORT_JOB = 'connector.import_tools';

type Deps = Pick<ServiceDeps, 'db' | 'fetch' | 'config' | 'secrets' | 'clock' | 'log'>;

export type ImportOutcome = { ok: true; tools: ImportedTool[] } | { ok: false; error: string; authProblem: boolean };

/** Never lets a secret of the connector into an error text that is stored and shown. */
function redact(deps: Deps, row: ConnectorRow, text: string): string {
  let out = text;
  for (const enc of [row.bearer_token_enc, row.access_token_enc, row.refresh_token_enc, row.client_secret_enc]) {
    if (!enc) continue;
    const secret = deps.secrets.decrypt(enc);
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(/Bearer\s+[^\s"',;]+/gi, 'Bearer [redacted]').slice(0, 500);
}

/** Whether import can be attempted now: an OAuth connector needs a token (a re-authorization may be pending). */
export function canImport(row: Pick<ConnectorRow, 'auth_type' | 'oauth_status' | 'access_token_enc'>): boolean {
  return row.auth_type !== 'oauth2' || (row.oauth_status !== 'needs_reauth' && row.access_token_enc !== null);
}

export async function importTools(deps: Deps, row: ConnectorRow, signal?: AbortSignal): Promise<ImportOutcome> {
  let outcome: ImportOutcome;
  try {
    outcome = { ok: true, tools: await withConnectorClient(deps, row, listServerTools, signal) };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const text = error instanceof Error ? error.message : String(error);
    const message = typeof code === 'number' && code >= 400 ? `server answered ${code}: ${text}` : text;
    outcome = { ok: false, error: redact(deps, row, message || 'tool import failed'), authProblem: error instanceof ConnectorAuthError };
  }
  await deps.db.transaction().execute(async (trx) => {
    // The row lock serialises imports of one connector (API call and job at once).
    const current = await lockedConnector(trx, row.connector_id);
    if (!current) return;
    const now = deps.clock.now();
    if (!outcome.ok) {
      await trx.updateTable('connectors').set({ last_index_error: outcome.error }).where('connector_id', '=', row.connector_id).execute();
      return;
    }
    await trx.deleteFrom('connector_tools').where('connector_id', '=', row.connector_id).execute();
    const unique = [...new Map(outcome.tools.map((t) => [t.name, t])).values()];
    if (unique.length) {
      await trx
        .insertInto('connector_tools')
        .values(
          unique.map((t, position) => ({
            connector_id: row.connector_id,
            name: t.name,
            description: t.description,
            input_schema: JSON.stringify(t.input_schema ?? {}),
            position,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('connectors')
      .set({ last_indexed_at: now, last_index_error: null })
      .where('connector_id', '=', row.connector_id)
      .execute();
  });
  return outcome;
}

/** The job: a failed import is recorded on the connector, not retried (the owner sees last_index_error). */
export function importJob(deps: Deps): JobHandler<{ connector_id: string }> {
  return async ({ payload, signal }) => {
    const row = await deps.db.selectFrom('connectors').selectAll().where('connector_id', '=', payload.connector_id).executeTakeFirst();
    if (!row || !canImport(row)) return;
    const outcome = await importTools(deps, row, signal);
    if (!outcome.ok) deps.log.info('connector tool import failed', { connector_id: row.connector_id });
  };
}
