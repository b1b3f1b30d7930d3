// The per-owner cap on background generation (speech items, videos): every owner's items share the
// machine's voice and encoders with the live rooms, so one owner may have only so many generating at
// once; past it a create answers 429 (it may be sent again once one is ready).
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { tooManyRequests } from '../../platform/http/errors.js';

/** Seconds a refused create is told to wait: about how long an item takes. */
const RETRY_AFTER_SECONDS = 30;

export async function checkGeneratingCap(
  trx: Transaction<Database>,
  table: 'speech' | 'videos',
  ownerId: number,
  cap: number,
): Promise<void> {
  const { n } = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'generating')
    .executeTakeFirstOrThrow();
  if (Number(n) >= cap) {
    const what = table === 'speech' ? 'speech items' : 'videos';
    throw tooManyRequests(
      `too_many_generating: ${cap} ${what} of yours are still generating; send this again once one is ready`,
      RETRY_AFTER_SECONDS,
    );
  }
}
