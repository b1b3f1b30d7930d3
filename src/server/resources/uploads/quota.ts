// An owner's uploads are bounded (issue 52, N34: one key stored 1.8 GB in 20 s, and another tenant's replies
// slowed from 93 to 941 ms p95): at most config.uploads.quotaBytes kept at once (uploads not yet expired),
// and at most config.uploads.bytesPerMinute sent in any minute (this instance's count, on the service's
// clock). Past either, 429 with the spec's error body and a Retry-After; a body that says its size is
// refused before it is read.
import type { ServiceDeps } from '../../platform/context.js';
import { tooManyRequests } from '../../platform/http/errors.js';

const WINDOW_MS = 60_000;
const MB = 1024 * 1024;

export interface UploadQuota {
  /** Refuses (throws 429) when `bytes` more would pass the owner's rate or quota. */
  check(ownerId: number, bytes: number): Promise<void>;
  /** Counts a stored upload against the owner's rate. */
  record(ownerId: number, bytes: number): void;
}

export function uploadQuota(deps: Pick<ServiceDeps, 'db' | 'clock' | 'config'>): UploadQuota {
  const { db, clock, config } = deps;
  /** Per owner: the uploads of the last minute, oldest first. */
  const recent = new Map<number, Array<{ at: number; bytes: number }>>();

  function sentLastMinute(ownerId: number, now: number): { bytes: number; oldest?: number } {
    const list = (recent.get(ownerId) ?? []).filter((u) => u.at > now - WINDOW_MS);
    if (list.length) recent.set(ownerId, list);
    else recent.delete(ownerId);
    return { bytes: list.reduce((sum, u) => sum + u.bytes, 0), ...(list[0] ? { oldest: list[0].at } : {}) };
  }

  return {
    async check(ownerId, bytes) {
      const now = clock.now().getTime();
      const { bytesPerMinute, quotaBytes } = config.uploads;
      const sent = sentLastMinute(ownerId, now);
      if (sent.bytes + bytes > bytesPerMinute) {
        const wait = sent.oldest === undefined ? WINDOW_MS : sent.oldest + WINDOW_MS - now;
        throw tooManyRequests(`upload_rate_exceeded: at most ${Math.round(bytesPerMinute / MB)} MB of uploads a minute; send this again in ${Math.ceil(wait / 1000)} s`, wait / 1000);
      }
      const kept = await db
        .selectFrom('media')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
        .where('owner_id', '=', ownerId)
        .where('expires_at', '>', clock.now())
        .executeTakeFirstOrThrow();
      if (Number(kept.bytes) + bytes > quotaBytes) {
        throw tooManyRequests(`upload_quota_exceeded: your uploads kept now come to ${Math.round(Number(kept.bytes) / MB)} MB of ${Math.round(quotaBytes / MB)} MB; they are removed ${Math.round(config.uploads.lifetimeSeconds / 3600)} h after upload`, 3600);
      }
    },
    record(ownerId, bytes) {
      const list = recent.get(ownerId) ?? [];
      list.push({ at: clock.now().getTime(), bytes });
      recent.set(ownerId, list);
    },
  };
}
