// The one-statement start (start-write.ts), written for several starts at once. Starts of a deployment
// that arrive together, or while one of its writes is on its way, go together in the next one:
// one statement takes the deployment's row lock once, counts them all against total_call_limit and
// inserts the conversations that fit. Without this every start of a busy deployment took that lock in
// turn and held it through its own commit (one disk flush per call), which bounded the deployment at
// about one start per flush whatever the machine. A start alone waits one turn of the event loop.
// Which starts fit is decided in arrival order: the first `admitted` of the batch, where
// admitted = least(batch size, total_call_limit − usage_total) on the row as locked, and none when the
// deployment, its PAL or its face is no longer as read (the conditions of the single start).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ConversationInsert, UsablePalAndFace } from '../conversations/create.js';
import { palAndFaceAsRead } from '../conversations/repository.js';
import type { StartableDeployment } from './repository.js';
import type { Limits } from './schemas.js';

/** Past this many, the rest wait for the next statement. */
const MAX_BATCH = 100;

export interface BatchedStart {
  deployment: Pick<StartableDeployment, 'deployment_id' | 'owner_id' | 'version' | 'limits'>;
  conversation: ConversationInsert;
  palAndFace: UsablePalAndFace;
}

interface Waiting {
  start: BatchedStart;
  settle: (written: boolean) => void;
  fail: (error: unknown) => void;
}

export class StartBatcher {
  /** Per batch key, the starts waiting to be written (present while a write is due or on its way). */
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly db: Db) {}

  /** Whether the start's conversation was written and counted (false: nothing written; decide it again). */
  write(start: BatchedStart): Promise<boolean> {
    return new Promise((settle, fail) => {
      const key = batchKey(start);
      const queue = this.waiting.get(key);
      if (queue) return void queue.push({ start, settle, fail });
      this.waiting.set(key, [{ start, settle, fail }]);
      // Written once the starts that came in with this one have reached here too: PGlite runs a
      // statement without giving the event loop a turn, so no start could join one on its way.
      setImmediate(() => void this.writeBatches(key));
    });
  }

  private async writeBatches(key: string): Promise<void> {
    const queue = this.waiting.get(key)!;
    for (let batch = queue.splice(0, MAX_BATCH); batch.length; batch = queue.splice(0, MAX_BATCH)) {
      try {
        const written = await writeBatch(
          this.db,
          batch.map((w) => w.start),
        );
        for (const w of batch) w.settle(written.has(w.start.conversation.conversation_id));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    this.waiting.delete(key);
  }
}

/** Starts that the same statement can write: same deployment as read, same PAL and face. */
function batchKey({ deployment, palAndFace: { pal, face } }: BatchedStart): string {
  return JSON.stringify([
    deployment.deployment_id,
    deployment.version,
    pal.pal_id,
    pal.pal_name,
    face.wanted,
    face.owner_id,
    face.face_type,
    face.status,
  ]);
}

/** The conversation ids written. Written in SQL: building it with the query builder cost a good part of running it. */
async function writeBatch(db: Db, starts: BatchedStart[]): Promise<Set<string>> {
  const { deployment, palAndFace } = starts[0]!;
  const total = (deployment.limits as Limits).total_call_limit ?? null;
  const columns = Object.keys(starts[0]!.conversation);
  const rows = starts.map((s) => ({
    ...s.conversation,
    memory_stores: jsonValue(s.conversation.memory_stores),
    properties: jsonValue(s.conversation.properties),
  }));
  // `locked` waits for the row lock and then sees the row as the last writer left it (PostgreSQL re-reads
  // a row it waited for and re-applies the conditions), so usage_total there is current. The version is
  // the deployment's as it was read and checked (every change of its settings bumps it).
  const { rows: written } = await sql<{ conversation_id: string }>`
    with locked as (
      select usage_total from deployments
      where deployment_id = ${deployment.deployment_id} and version = ${deployment.version}
        ${total != null ? sql`and usage_total < ${total}` : sql``}
        and ${palAndFaceAsRead(deployment.owner_id, palAndFace)}
      for no key update
    ), counted as (
      update deployments set usage_total = deployments.usage_total + fitting.admitted
      from (select least(${starts.length}::int, ${total != null ? sql`${total}::int - usage_total` : sql`${starts.length}::int`}) as admitted from locked) as fitting
      where deployment_id = ${deployment.deployment_id}
      returning fitting.admitted
    )
    insert into conversations (${sql.join(columns.map((column) => sql.ref(column)))})
    select ${sql.join(columns.map((column) => sql.ref(`batch.${column}`)))}
    from jsonb_populate_recordset(null::conversations, ${JSON.stringify(rows)}::jsonb) with ordinality as batch, counted
    where batch.ordinality <= counted.admitted
    returning conversation_id`.execute(db);
  return new Set(written.map((r) => r.conversation_id));
}

/** A json column's value as JSON (the conversation's insert carries it as JSON text). */
function jsonValue(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
