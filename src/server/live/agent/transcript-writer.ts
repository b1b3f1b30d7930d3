// The conversation's transcript as the PAL's room writes it (resources/conversations/transcript-store.ts): a
// turn at a time, each insert after the one before, so that the rows are in the order the turns were recorded.
// Turns that began at the same instant (a clock that stands still) are read back in the order they were
// written, and on PostgreSQL two inserts in flight at once landed either way round: the visitor's question
// after the PAL's answer to it.
import type { TranscriptEntry } from '../../../protocol/callbacks.js';
import type { Db } from '../../platform/db/database.js';
import type { Logger } from '../../platform/log.js';
import { appendTranscriptEntry, roundSeconds } from '../../resources/conversations/transcript-store.js';

export type RecordedTurn = TranscriptEntry & { interrupted?: boolean };

export class TranscriptWriter {
  /** The last write recorded; each waits for the one before. */
  #last: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly conversationId: string,
    /** When the call started (`seconds_from_start`). */
    private readonly startedAt: Date,
  ) {}

  /** A turn's times as the transcript gives them. */
  timing(began: Date, duration: number): Pick<TranscriptEntry, 'timestamp' | 'seconds_from_start' | 'duration'> {
    return {
      timestamp: began.getTime() / 1000,
      seconds_from_start: roundSeconds(Math.max(0, began.getTime() - this.startedAt.getTime()) / 1000),
      duration,
    };
  }

  /** Writes a turn once `ready` resolves and the turn recorded before it is in. A failed write is logged and ends no other. */
  record(entry: RecordedTurn, ready: Promise<void> = Promise.resolve()): void {
    this.#last = Promise.all([this.#last, ready])
      .then(() => appendTranscriptEntry(this.db, this.conversationId, entry))
      .catch((error: unknown) => this.log.error('transcript write failed', { conversation_id: this.conversationId, error: error instanceof Error ? error.message : String(error) }));
  }

  /** Resolves once the turns recorded so far are in the database. */
  async settled(): Promise<void> {
    await this.#last;
  }

  /** Resolves once no turn is left to write, counting those recorded while the ones before were written. */
  async drained(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.#last;
      await last;
    } while (last !== this.#last);
  }
}
