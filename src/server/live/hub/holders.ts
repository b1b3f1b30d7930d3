// Which instance holds a room: `live_holder` and its heartbeat in the database. Taking a room when no
// live instance holds it, taking it from a holder that does not answer, keeping it with a heartbeat,
// and letting it go. On PGlite (one instance) this one always holds every room it is asked for.
import type { ServiceDeps } from '../../platform/context.js';

export class RoomHolders {
  constructor(
    private readonly deps: ServiceDeps,
    /** Whether other instances share the database (PostgreSQL with the relay), so that a claim may be refused. */
    private readonly shared: () => boolean,
  ) {}

  /** This process among the instances sharing the database (a new one each start). */
  get instanceId(): string {
    return this.deps.instanceId;
  }

  /** A room on another instance is alive while its heartbeat is this fresh. */
  get staleAfterMs(): number {
    return this.deps.config.room.pollMs * 3 + 1000;
  }

  fresh(heartbeat: Date | null): boolean {
    return heartbeat !== null && this.deps.clock.now().getTime() - heartbeat.getTime() < this.staleAfterMs;
  }

  /**
   * Takes the room for this instance unless another live instance holds it; answers the holder. With
   * one instance (PGlite) it is always this one, even just after a restart with the old heartbeat fresh.
   */
  async claim(conversationId: string): Promise<string | null> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const staleBefore = new Date(now.getTime() - this.staleAfterMs);
    const claimed = await db
      .updateTable('conversations')
      .set({ live_holder: this.instanceId, live_heartbeat_at: now })
      .where('conversation_id', '=', conversationId)
      .$if(this.shared(), (q) =>
        q.where((eb) =>
          eb.or([
            eb('live_holder', 'is', null),
            eb('live_holder', '=', this.instanceId),
            eb('live_heartbeat_at', 'is', null),
            eb('live_heartbeat_at', '<', staleBefore),
          ]),
        ),
      )
      .returning('conversation_id')
      .executeTakeFirst();
    if (claimed) return this.instanceId;
    const row = await db.selectFrom('conversations').select('live_holder').where('conversation_id', '=', conversationId).executeTakeFirst();
    return row?.live_holder ?? null;
  }

  /** Takes the room from a holder that does not answer (unless another took it meanwhile); answers the holder now. */
  async takeOver(conversationId: string, silent: string): Promise<string | null> {
    const now = this.deps.clock.now();
    const taken = await this.deps.db
      .updateTable('conversations')
      .set({ live_holder: this.instanceId, live_heartbeat_at: now })
      .where('conversation_id', '=', conversationId)
      .where('live_holder', '=', silent)
      .returning('conversation_id')
      .executeTakeFirst();
    if (taken) {
      this.deps.log.info('room taken over from a holder that does not answer', {
        conversation_id: conversationId,
        holder_instance: silent,
      });
      return this.instanceId;
    }
    return this.claim(conversationId);
  }

  /** A holder stopped answering the relay: its claim on these rooms is let go, so that the next join takes them. */
  async letGo(silent: string, conversationIds: string[]): Promise<void> {
    if (!conversationIds.length) return;
    await this.deps.db
      .updateTable('conversations')
      .set({ live_holder: null })
      .where('conversation_id', 'in', conversationIds)
      .where('live_holder', '=', silent)
      .execute();
  }

  /** This instance lets go of these rooms, so that their participants' next join takes them over elsewhere. */
  async release(conversationIds: string[]): Promise<void> {
    if (!conversationIds.length) return;
    await this.deps.db
      .updateTable('conversations')
      .set({ live_holder: null })
      .where('conversation_id', 'in', conversationIds)
      .where('live_holder', '=', this.instanceId)
      .execute();
  }

  /**
   * The heartbeat of the rooms held here: the rows still held, with their status. The others were taken over or
   * let go (another instance found this one silent): they are not taken back, their participants join again.
   */
  beat(conversationIds: string[], now: Date) {
    return this.deps.db
      .updateTable('conversations')
      .set({ live_heartbeat_at: now })
      .where('conversation_id', 'in', conversationIds)
      .where('live_holder', '=', this.instanceId)
      .returning(['conversation_id', 'status', 'shutdown_reason'])
      .execute();
  }

  /** The live instance other than this one that holds the room, if any. */
  async liveHolderElsewhere(conversationId: string): Promise<string | null> {
    if (!this.shared()) return null;
    const row = await this.deps.db
      .selectFrom('conversations')
      .select(['live_holder', 'live_heartbeat_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (!row?.live_holder || row.live_holder === this.instanceId || !this.fresh(row.live_heartbeat_at)) return null;
    return row.live_holder;
  }
}
