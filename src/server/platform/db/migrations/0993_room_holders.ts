// Which service instance holds a local room: the PAL, the recording and the timers run there, and the
// other instances relay their participants' traffic to it (see live/cluster/room-relay.ts). The
// holder keeps live_heartbeat_at fresh; a room whose holder went quiet may be taken over.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('conversations').addColumn('live_holder', 'text').execute();
}
