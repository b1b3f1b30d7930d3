// One delivery mechanism for every callback the service sends. A `send` records the bodies as
// deliveries of one group and enqueues a job that POSTs them in order (a later body never overtakes
// an earlier one), signed per Standard Webhooks, through the guarded fetch with no redirects followed,
// retried with backoff; the outcome of each delivery stays readable through the API.
import type { Db } from '../db/database.js';
import type { Clock } from '../time.js';
import { newId } from '../ids.js';
import type { JobHandler, JobQueue } from '../jobs/queue.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import type { ServiceMetrics } from '../metrics.js';
import { signWebhook } from './signing.js';
import { scrubText, type Logger } from '../log.js';

export const WEBHOOK_JOB = 'webhook.deliver';
const MAX_ATTEMPTS = 6;

export interface SendInput {
  ownerId: number;
  url: string;
  /** Bodies POSTed in this order; each is one delivery. */
  bodies: Array<Record<string, unknown>>;
  /** Label for the delivery list (defaults to the body's event_type or status). */
  eventType?: string;
  /** Record inside this transaction. */
  db?: Db;
}

export interface Webhooks {
  send(input: SendInput): Promise<string>;
  secretFor(ownerId: number): Promise<string>;
  deliverJob: JobHandler<{ group_id: string }>;
}

export function createWebhooks(deps: {
  db: Db;
  jobs: JobQueue;
  fetch: GuardedFetch;
  log: Logger;
  clock: Pick<Clock, 'now'>;
  metrics?: Pick<ServiceMetrics, 'webhookDeliveryFailures'>;
  timeoutMs?: number;
}): Webhooks {
  const { db, jobs, fetch, log, metrics } = deps;

  async function secretFor(ownerId: number): Promise<string> {
    const row = await db.selectFrom('owners').select('webhook_secret').where('owner_id', '=', ownerId).executeTakeFirst();
    if (!row) throw new Error(`owner ${ownerId} has no webhook secret`);
    return row.webhook_secret;
  }

  return {
    secretFor,
    async send({ ownerId, url, bodies, eventType, db: trx }) {
      const groupId = newId('whg_', 16);
      const target = trx ?? db;
      await target
        .insertInto('webhook_deliveries')
        .values(
          bodies.map((body, seq) => ({
            delivery_id: newId('msg_', 20),
            owner_id: ownerId,
            group_id: groupId,
            seq,
            url,
            event_type: eventType ?? String(body.event_type ?? body.status ?? 'callback'),
            payload: JSON.stringify(body),
          })),
        )
        .execute();
      await jobs.enqueue(WEBHOOK_JOB, { group_id: groupId }, { maxAttempts: MAX_ATTEMPTS, ...(trx ? { db: trx } : {}) });
      return groupId;
    },
    async deliverJob({ payload, attempt, maxAttempts }) {
      const pending = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('group_id', '=', payload.group_id)
        .where('status', '=', 'pending')
        .orderBy('seq')
        .execute();
      for (const delivery of pending) {
        const body = JSON.stringify(delivery.payload);
        const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
        let status: number | null = null;
        let failure: string | null = null;
        try {
          const secret = await secretFor(delivery.owner_id);
          const response = await fetch(delivery.url, {
            method: 'POST',
            redirect: 'manual',
            timeoutMs: deps.timeoutMs ?? 10_000,
            maxBytes: 64 * 1024,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'palkit-webhooks/1',
              'webhook-id': delivery.delivery_id,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signWebhook(secret, delivery.delivery_id, timestamp, body),
            },
            body,
          });
          status = response.status;
          await response.body?.cancel();
          if (status < 200 || status > 299) failure = `receiver answered ${status}`;
        } catch (error) {
          failure = scrubText(error instanceof Error ? error.message : String(error));
        }
        const final = failure !== null && attempt >= maxAttempts;
        await db
          .updateTable('webhook_deliveries')
          .set({
            attempts: attempt,
            response_status: status,
            last_error: failure,
            ...(failure === null ? { status: 'delivered', delivered_at: deps.clock.now() } : final ? { status: 'failed' } : {}),
          })
          .where('delivery_id', '=', delivery.delivery_id)
          .execute();
        if (failure !== null) {
          metrics?.webhookDeliveryFailures.inc({ final: String(final) });
          if (final) {
            // The group gives up together: later bodies must not arrive without the earlier one.
            await db
              .updateTable('webhook_deliveries')
              .set({ status: 'failed', last_error: 'an earlier delivery of this event failed' })
              .where('group_id', '=', payload.group_id)
              .where('status', '=', 'pending')
              .execute();
            log.info('webhook delivery failed', { delivery_id: delivery.delivery_id, status });
            return;
          }
          throw new Error(`webhook ${delivery.delivery_id}: ${failure}`);
        }
      }
    },
  };
}
