// POST /v2/daily/webhooks: Daily's meeting and participant events, signature verified, turned into the
// conversation callbacks. Daily signs `${X-Webhook-Timestamp}.${raw body}` with HMAC-SHA256 under the
// base64-decoded webhook secret and sends the base64 digest as X-Webhook-Signature. Every effect is a
// conditional update, so a redelivered event changes nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp } from '../../platform/http/app-env.js';
import { json, publicRoute, UnauthorizedBody } from '../../platform/http/openapi.js';
import { endConversation } from '../../resources/conversations/end-conversation.js';
import { claimPalJoined } from '../../resources/conversations/pal-joined.js';
import { finalizeConversation } from '../room/finalize.js';
import { botUserId } from '../../providers/conferencing/daily.js';
import { visitorJoined, visitorLeft } from './daily-deadlines.js';

/** Events older or newer than this are refused (replays). */
const TOLERANCE_SECONDS = 5 * 60;

export function signDailyWebhook(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secret, 'base64')).update(`${timestamp}.${rawBody}`).digest('base64');
}

export function verifyDailyWebhook(
  secret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  rawBody: string,
  now: Date,
): boolean {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  // Daily's timestamp is in seconds; accept milliseconds too rather than refuse on a unit.
  const seconds = timestamp.length > 11 ? Number(timestamp) / 1000 : Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - seconds) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signDailyWebhook(secret, timestamp, rawBody));
  const given = Buffer.from(signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const DailyEvent = z
  .object({
    version: z.string().optional(),
    type: z.string().openapi({ example: 'participant.joined' }),
    id: z.string().optional(),
    event_ts: z.number().optional(),
    payload: z
      .object({
        room: z.string().optional(),
        user_id: z.string().nullable().optional(),
        user_name: z.string().nullable().optional(),
        session_id: z.string().optional(),
        owner: z.boolean().optional(),
      })
      .passthrough(),
  })
  .passthrough()
  .openapi('DailyWebhookEvent');

export const dailyWebhookRoute = publicRoute({
  method: 'post',
  path: '/v2/daily/webhooks',
  tags: ['Daily'],
  summary: "Receive Daily's webhooks (meeting and participant events)",
  description:
    'Point a Daily webhook (`POST https://api.daily.co/v1/webhooks`) at this URL and set `PALKIT_DAILY_WEBHOOK_SECRET` to its `hmac` secret. ' +
    'Requests must carry `X-Webhook-Timestamp` and `X-Webhook-Signature` (base64 HMAC-SHA256 of `{timestamp}.{raw body}` under the base64-decoded secret); others get 401. ' +
    "Daily's verification ping on webhook creation is answered 200. `participant.joined` of the PAL's bot (`user_id` = `pal_{pal_id}`) sends `system.pal_joined` and `system.replica_joined`; " +
    '`meeting.ended` ends the conversation (`max_call_duration reached` when the call ran its full length, `participant_left_timeout reached` otherwise, or the reason it was already ended with) ' +
    'and sends `system.shutdown` and `application.transcription_ready` with the transcript the runner reported. ' +
    "When the last visitor's `participant.left` is not followed by a join within `participant_left_timeout`, the conversation ends with `participant_left_timeout reached`; " +
    "a bot that accepted the handoff but has not joined within `PALKIT_PAL_RUNNER_JOIN_SECONDS` (30) ends it with `bot_could_not_join_meeting_it_was_probably_ended`. Body: Daily's event `{version, type, id, payload, event_ts}` (read raw for the signature).",
  responses: {
    200: json(
      z.object({ received: z.boolean() }).openapi('DailyWebhookAnswer'),
      'Processed (or ignored: an event about no conversation of this service)',
    ),
    401: json(UnauthorizedBody, 'Missing or wrong signature, stale timestamp, or no PALKIT_DAILY_WEBHOOK_SECRET configured'),
  },
});

export function registerDailyWebhooks(app: ApiApp, deps: ServiceDeps): void {
  app.openapi(dailyWebhookRoute, async (c) => {
    const raw = await c.req.text();
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      /* refused below */
    }
    // Daily checks a new webhook URL with a test request before it signs anything; it must answer 200.
    if (parsed && typeof parsed === 'object' && 'test' in parsed && !('type' in parsed)) return c.json({ received: false }, 200);
    const secret = deps.config.daily.webhookSecret;
    if (!secret) return c.json({ message: 'Daily webhooks are not configured (PALKIT_DAILY_WEBHOOK_SECRET)' }, 401);
    if (!verifyDailyWebhook(secret, c.req.header('x-webhook-timestamp'), c.req.header('x-webhook-signature'), raw, deps.clock.now())) {
      return c.json({ message: 'Invalid webhook signature' }, 401);
    }
    const event = DailyEvent.safeParse(parsed);
    // A signed event we cannot read is Daily's business, not a retry loop: acknowledge it.
    if (!event.success) return c.json({ received: false }, 200);
    await handleDailyEvent(deps, event.data);
    return c.json({ received: true }, 200);
  });
}

type DailyEvent = z.infer<typeof DailyEvent>;

async function handleDailyEvent(deps: ServiceDeps, event: DailyEvent): Promise<void> {
  const roomName = event.payload.room;
  if (!roomName) return;
  const conv = await deps.db
    .selectFrom('conversations as c')
    .select(['c.conversation_id', 'c.pal_id', 'c.status', 'c.created_at', 'c.properties'])
    .where('c.provider', '=', 'daily')
    .where('c.provider_room', '=', roomName)
    .executeTakeFirst();
  if (!conv) return;

  if (event.type === 'participant.joined' && event.payload.user_id === botUserId(conv.pal_id)) {
    // The first join of the bot claims live_started_at; a rejoin or a redelivery finds it set.
    await claimPalJoined(deps, conv.conversation_id);
    return;
  }

  const visitorSession = event.payload.session_id ?? event.payload.user_id;
  const isBot = event.payload.user_id === botUserId(conv.pal_id);
  if (!isBot && visitorSession && conv.status === 'active') {
    if (event.type === 'participant.joined') return visitorJoined(deps, conv.conversation_id, visitorSession);
    if (event.type === 'participant.left')
      return visitorLeft(deps, conv.conversation_id, visitorSession, conv.properties as Record<string, unknown>);
  }

  if (event.type === 'meeting.ended') {
    const maxDuration = Number((conv.properties as Record<string, unknown>).max_call_duration ?? 0);
    const ranFull = maxDuration > 0 && deps.clock.now().getTime() - conv.created_at.getTime() >= maxDuration * 1000;
    await endConversation(deps, conv.conversation_id, ranFull ? ShutdownReasons.maxCallDuration : ShutdownReasons.participantLeftTimeout);
    await finalizeConversation(deps, conv.conversation_id);
  }
}
