// The owner's webhook signing secret and the list of recent callback deliveries with their outcome.
import { z } from '@hono/zod-openapi';
import type { ResourceModule } from '../module.js';
import { errors, json, keyedRoute } from '../../platform/http/openapi.js';
import { WEBHOOK_JOB } from '../../platform/webhooks/webhooks.js';

const Delivery = z
  .object({
    delivery_id: z.string().openapi({ description: 'Also sent as the webhook-id header' }),
    url: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
  })
  .openapi('WebhookDelivery');

const listDeliveries = keyedRoute({
  method: 'get',
  path: '/v2/webhooks/deliveries',
  tags: ['Webhooks'],
  summary: 'List recent callback deliveries (newest first)',
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(100),
      status: z.enum(['pending', 'delivered', 'failed']).optional(),
      event_type: z.string().optional(),
    }),
  },
  responses: { 200: json(z.object({ data: z.array(Delivery) }), 'Deliveries'), ...errors(400) },
});

const getSecret = keyedRoute({
  method: 'get',
  path: '/v2/webhooks/secret',
  tags: ['Webhooks'],
  summary: 'Read the signing secret of your callbacks (Standard Webhooks, whsec_…)',
  responses: { 200: json(z.object({ secret: z.string(), scheme: z.literal('standard-webhooks') }), 'Secret') },
});

export const webhooksModule: ResourceModule = {
  name: 'webhooks',
  jobs: (deps) => ({ [WEBHOOK_JOB]: deps.webhooks.deliverJob }),
  routes(app, deps) {
    app.openapi(listDeliveries, async (c) => {
      const { limit, status, event_type } = c.req.valid('query');
      let q = deps.db.selectFrom('webhook_deliveries').selectAll().where('owner_id', '=', c.get('ownerId'));
      if (status) q = q.where('status', '=', status);
      if (event_type) q = q.where('event_type', '=', event_type);
      const rows = await q.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
      return c.json(
        {
          data: rows.map((r) => ({
            delivery_id: r.delivery_id,
            url: r.url,
            event_type: r.event_type,
            status: r.status,
            attempts: r.attempts,
            response_status: r.response_status,
            last_error: r.last_error,
            payload: r.payload,
            created_at: r.created_at.toISOString(),
            delivered_at: r.delivered_at?.toISOString() ?? null,
          })),
        },
        200,
      );
    });
    app.openapi(getSecret, async (c) =>
      c.json({ secret: await deps.webhooks.secretFor(c.get('ownerId')), scheme: 'standard-webhooks' as const }, 200),
    );
  },
};
