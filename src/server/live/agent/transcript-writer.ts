// The conversation's transcript as the PAL's room writes it (resources/conversations/transcript-store.ts): a
// turn at a time, each insert after the one before, so that the rows are in the order the turns were recorded.
// Turns that began at the same instant (a clock that stands still) are read back in the order they were
// written, and on PostgreSQL two inserts in flight at once landed either way round: the visitor's question
// after the PAL's answer to it.
// A write the database cannot take now (a restart, a failover) is tried again, the turns after it waiting
// behind it, for up to RETRY_FOR_MS: a 0.7 s PostgreSQL restart dropped 3 lines before. The PAL's
// utterance is written while it is heard (`progress`), marked interrupted until it ends, so that a room
// that dies mid-sentence leaves what the visitor heard in the transcript.
import type { TranscriptEntry } from '../../../protocol/callbacks.js';
import type { Db } from '../../platform/db/database.js';
import type { Logger } from '../../platform/log.js';
import { systemClock, type Clock, type ClockTimer } from '../../platform/time.js';
import { backoffMs } from '../../platform/backoff.js';
import { databaseUnavailable } from '../../platform/db/unavailable.js';
import { appendTranscriptEntry, roundSeconds, updateTranscriptEntry } from '../../resources/conversations/transcript-store.js';

export type RecordedTurn = TranscriptEntry & { interrupted?: boolean };

/** How long a write is tried again while the database is away, and the waits between tries. */
export const TRANSCRIPT_RETRY = { forMs: 60_000, baseMs: 100, maxMs: 2_000 } as const;
/** Turns waiting to be written at most (the database away long): past it the newest is dropped, and logged. */
export const MAX_PENDING_TURNS = 200;
/** An utterance being heard is written again at most this often. */
export const PROGRESS_EVERY_MS = 500;

interface Live {
  /** The row once inserted. */
  entryId: number | null;
  /** What was heard by now, not yet written. */
  latest: RecordedTurn | null;
  lastWriteAt: number;
  timer: ClockTimer | undefined;
  /** A write of it is queued. */
  queued: boolean;
}

export class TranscriptWriter {
  /** The last write recorded; each waits for the one before. */
  #last: Promise<void> = Promise.resolve();
  #pending = 0;
  /** Utterances being heard, by inference id. */
  readonly #live = new Map<string, Live>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly conversationId: string,
    /** When the call started (`seconds_from_start`). */
    private readonly startedAt: Date,
    private readonly clock: Pick<Clock, 'now' | 'sleep' | 'setTimeout' | 'clearTimeout'> = systemClock,
  ) {}

  /** A turn's times as the transcript gives them. */
  timing(began: Date, duration: number): Pick<TranscriptEntry, 'timestamp' | 'seconds_from_start' | 'duration'> {
    return {
      timestamp: began.getTime() / 1000,
      seconds_from_start: roundSeconds(Math.max(0, began.getTime() - this.startedAt.getTime()) / 1000),
      duration,
    };
  }

  /**
   * Writes a turn once `ready` resolves and the turn recorded before it is in. A failed write is logged and
   * ends no other. The PAL's turn of an utterance written while it was heard completes that row.
   */
  record(entry: RecordedTurn, ready: Promise<void> = Promise.resolve()): void {
    const live = entry.role === 'assistant' && entry.inference_id ? this.#live.get(entry.inference_id) : undefined;
    if (live) {
      this.#live.delete(entry.inference_id!);
      this.clock.clearTimeout(live.timer);
      live.latest = null;
    }
    this.#enqueue(ready, async () => {
      if (live?.entryId != null) await updateTranscriptEntry(this.db, live.entryId, entry);
      else await appendTranscriptEntry(this.db, this.conversationId, entry);
    });
  }

  /**
   * The PAL's utterance as heard so far (`inference_id` names it): written at once, marked interrupted (so a
   * room that dies leaves it so), then again at most every PROGRESS_EVERY_MS; `record` completes it.
   */
  progress(entry: RecordedTurn & { inference_id: string }): void {
    let live = this.#live.get(entry.inference_id);
    if (!live)
      this.#live.set(entry.inference_id, (live = { entryId: null, latest: null, lastWriteAt: -Infinity, timer: undefined, queued: false }));
    live.latest = { ...entry, interrupted: true };
    if (live.queued || live.timer) return;
    const wait = live.lastWriteAt + PROGRESS_EVERY_MS - this.clock.now().getTime();
    if (wait > 0) live.timer = this.clock.setTimeout(() => ((live.timer = undefined), this.#writeProgress(live)), wait);
    else this.#writeProgress(live);
  }

  #writeProgress(live: Live): void {
    if (!live.latest) return;
    live.queued = true;
    this.#enqueue(Promise.resolve(), async () => {
      live.queued = false;
      const entry = live.latest;
      if (!entry) return; // completed meanwhile: record() writes it
      live.latest = null;
      live.lastWriteAt = this.clock.now().getTime();
      if (live.entryId === null) live.entryId = await appendTranscriptEntry(this.db, this.conversationId, entry);
      else await updateTranscriptEntry(this.db, live.entryId, entry);
    });
  }

  /** Runs `write` after the writes before it, tried again while the database is away; bounded. */
  #enqueue(ready: Promise<void>, write: () => Promise<void>): void {
    if (this.#pending >= MAX_PENDING_TURNS) {
      this.log.error('transcript write dropped: too many turns wait for the database', {
        conversation_id: this.conversationId,
        pending: this.#pending,
      });
      return;
    }
    this.#pending++;
    this.#last = Promise.all([this.#last, ready])
      .then(() => this.#withRetry(write))
      .catch((error: unknown) =>
        this.log.error('transcript write failed', {
          conversation_id: this.conversationId,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => void this.#pending--);
  }

  async #withRetry(write: () => Promise<void>): Promise<void> {
    const since = this.clock.now().getTime();
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (!databaseUnavailable(error) || this.clock.now().getTime() - since >= TRANSCRIPT_RETRY.forMs) throw error;
        if (attempt === 1)
          this.log.info('transcript write waits for the database', {
            conversation_id: this.conversationId,
            error: error instanceof Error ? error.message : String(error),
          });
        await this.clock.sleep(backoffMs(attempt, TRANSCRIPT_RETRY));
      }
    }
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

/**
 * Resolves once the microtasks of this turn have run, which hand an answer that needs no lookup (an echo,
 * a card's line, a guardrail's refusal) to the voice. The visitor's turn is written to the transcript
 * after that: the embedded database runs its statements on this thread, and an insert that ran first
 * held up the reply's synthesis by as long as it took (received → sentence: 8 ms p50 on a quiet machine,
 * ~60 ms p95 busy).
 */
export function afterHandOff(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
