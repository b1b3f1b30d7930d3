// Uploads do not stay forever: each is stored with an expiry (its lifetime, PALKIT_UPLOAD_LIFETIME_SECONDS,
// from the service's clock) and a sweep every minute removes the expired ones with their bytes (a file
// under PGlite, the row's bytea on PostgreSQL), a bounded batch per transaction and a bounded number of
// batches per sweep, so that a backlog is worked off over several sweeps without holding the database.
// An upload a face still training names as its train_video_url is kept until that training ends.
import { sql } from 'kysely';
import type { ServiceDeps } from '../../platform/context.js';
import type { ClockTimer } from '../../platform/time.js';

export const UPLOAD_SWEEP = { everyMs: 60_000, batch: 100, batchesPerSweep: 10 } as const;

type SweepDeps = Pick<ServiceDeps, 'db' | 'media' | 'clock'>;

/** Removes uploads expired by `now` (default the clock's), unless a training face still uses them; how many went. */
export async function sweepExpiredUploads(
  deps: SweepDeps,
  now: Date = deps.clock.now(),
  limits: { batch: number; batchesPerSweep: number } = UPLOAD_SWEEP,
): Promise<number> {
  let removed = 0;
  for (let round = 0; round < limits.batchesPerSweep; round++) {
    let files: string[] = [];
    const ids = await deps.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('media')
        .select('media_id')
        .where('expires_at', '<=', now)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('faces')
                .select('face_id')
                .where('status', '=', 'training')
                .where(sql<boolean>`faces.train_video_url like ('%/media/' || media.media_id)`),
            ),
          ),
        )
        .orderBy('expires_at')
        .limit(limits.batch)
        .execute();
      const batch = rows.map((r) => r.media_id);
      files = await deps.media.remove(trx, batch);
      return batch;
    });
    // The files go once the rows' deletion has committed (a rolled-back one keeps them).
    await deps.media.discard(files);
    removed += ids.length;
    if (ids.length < limits.batch) break;
  }
  return removed;
}

/** Runs the sweep on the service's clock; the returned stop waits for a sweep under way. */
export function startUploadSweep(deps: Pick<ServiceDeps, 'db' | 'media' | 'clock' | 'log'>): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer: ClockTimer = deps.clock.setInterval(() => {
    if (running) return; // a slow sweep is not overlapped by the next
    running = sweepExpiredUploads(deps)
      .then((count) => {
        if (count > 0) deps.log.info('expired uploads removed', { count });
      })
      .catch((error: unknown) =>
        deps.log.error('the uploads sweep failed', { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => (running = null));
  }, UPLOAD_SWEEP.everyMs);
  timer.unref();
  return async () => {
    deps.clock.clearTimeout(timer);
    await running;
  };
}
