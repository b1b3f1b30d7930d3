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
  /**
   * Refuses (throws 429) when `bytes` more would pass the owner's rate or quota; otherwise holds them against
   * both until `settle` says how many were stored (0 when none: the hold is let go), so that uploads sent at
   * the same time cannot pass the bounds together.
   */
  reserve(ownerId: number, bytes: number): Promise<{ settle(stored: number): void }>;
}

export function uploadQuota(deps: Pick<ServiceDeps, 'db' | 'clock' | 'config'>): UploadQuota {
  const { db, clock, config } = deps;
  /** Per owner: the uploads of the last minute (and those under way), oldest first. */
  const recent = new Map<number, Array<{ at: number; bytes: number }>>();
  /** Per owner: bytes held by uploads under way, not yet in the database. */
  const underWay = new Map<number, number>();
  const hold = (ownerId: number, delta: number) => {
    const left = (underWay.get(ownerId) ?? 0) + delta;
    if (left > 0) underWay.set(ownerId, left);
    else underWay.delete(ownerId);
  };

  function sentLastMinute(ownerId: number, now: number): { bytes: number; oldest?: number } {
    const list = (recent.get(ownerId) ?? []).filter((u) => u.at > now - WINDOW_MS);
    if (list.length) recent.set(ownerId, list);
    else recent.delete(ownerId);
    return { bytes: list.reduce((sum, u) => sum + u.bytes, 0), ...(list[0] ? { oldest: list[0].at } : {}) };
  }

  return {
    async reserve(ownerId, bytes) {
      const now = clock.now().getTime();
      const { bytesPerMinute, quotaBytes } = config.uploads;
      const sent = sentLastMinute(ownerId, now);
      if (sent.bytes + bytes > bytesPerMinute) {
        const wait = sent.oldest === undefined ? WINDOW_MS : sent.oldest + WINDOW_MS - now;
        throw tooManyRequests(
          `upload_rate_exceeded: at most ${Math.round(bytesPerMinute / MB)} MB of uploads a minute; send this again in ${Math.ceil(wait / 1000)} s`,
          wait / 1000,
        );
      }
      const kept = await db
        .selectFrom('media')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
        .where('owner_id', '=', ownerId)
        .where('expires_at', '>', clock.now())
        .executeTakeFirstOrThrow();
      const held = underWay.get(ownerId) ?? 0;
      if (Number(kept.bytes) + held + bytes > quotaBytes) {
        throw tooManyRequests(
          `upload_quota_exceeded: your uploads kept now come to ${Math.round((Number(kept.bytes) + held) / MB)} MB of ${Math.round(quotaBytes / MB)} MB; they are removed ${Math.round(config.uploads.lifetimeSeconds / 3600)} h after upload`,
          3600,
        );
      }
      // Checked again after the read above: another upload may have been let through meanwhile.
      if (sentLastMinute(ownerId, clock.now().getTime()).bytes + bytes > bytesPerMinute)
        throw tooManyRequests(`upload_rate_exceeded: at most ${Math.round(bytesPerMinute / MB)} MB of uploads a minute`, WINDOW_MS / 1000);
      const entry = { at: clock.now().getTime(), bytes };
      const list = recent.get(ownerId) ?? [];
      list.push(entry);
      recent.set(ownerId, list);
      hold(ownerId, bytes);
      let settled = false;
      return {
        settle(stored) {
          if (settled) return;
          settled = true;
          hold(ownerId, -bytes);
          entry.bytes = stored;
        },
      };
    },
  };
}
