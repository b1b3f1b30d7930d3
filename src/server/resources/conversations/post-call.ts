// Post-call actions: HTTP requests a PAL is configured to make after each conversation
// (layers.post_call_actions). Each runs once, as a durable job enqueued when the conversation is
// finalized, through the guarded fetch; its outcome is the conversation callback
// `application.post_call_action_executed` (also listed under the verbose read's events).
import { z } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../platform/context.js';
import { isoMillis } from '../../platform/time.js';
import { looksLikeCredential } from '../../platform/log.js';
import { emitConversationCallbacks } from './events-store.js';
import { SECRET_MASK, unsealLayer } from '../pals/layer-secrets.js';

export const POST_CALL_JOB = 'conversation.post_call_action';
const TIMEOUT_MS = 15_000;
const BODY_LIMIT = 16_384;

export const PostCallAction = z
  .object({
    tool_id: z.string().min(1).max(64).optional().openapi({ description: 'Your identifier for the action; defaults to post_call_<index>' }),
    tool_name: z.string().min(1).max(200),
    url: z
      .union([
        z
          .string()
          .max(2048)
          .url()
          .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL'),
        // Sent back as shown: a URL with a credential in it is shown masked and kept as stored.
        z.literal(SECRET_MASK),
      ])
      .openapi({ description: 'A URL with a credential in it (?token=, a Slack webhook) is stored encrypted and shown masked' }),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    body: z.unknown().optional().openapi({ description: 'Sent as JSON; when absent, POST/PUT/PATCH send {conversation_id}' }),
  })
  .strict()
  .openapi('PostCallAction');
type Action = z.infer<typeof PostCallAction>;

interface Payload {
  conversation_id: string;
  index: number;
}

/** Queues one job per action the PAL (read by the caller) configures; called once, when the conversation is finalized. */
export async function enqueuePostCallActions(
  deps: ServiceDeps,
  conversationId: string,
  pal: { definition: unknown } | undefined,
): Promise<void> {
  const actions = (pal?.definition as { layers?: { post_call_actions?: unknown } } | undefined)?.layers?.post_call_actions;
  if (!Array.isArray(actions)) return;
  // maxAttempts 1: "once per post-call action"; a failed request is reported, not repeated.
  for (let index = 0; index < actions.length; index++)
    await deps.jobs.enqueue(POST_CALL_JOB, { conversation_id: conversationId, index } satisfies Payload, { maxAttempts: 1 });
}

async function readBody(res: Response): Promise<unknown> {
  const text = (await res.text()).slice(0, BODY_LIMIT);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function postCallJobs(deps: ServiceDeps) {
  return {
    [POST_CALL_JOB]: async ({ payload }: { payload: Payload }) => {
      const conv = await deps.db
        .selectFrom('conversations as c')
        .innerJoin('pals as p', 'p.pal_id', 'c.pal_id')
        .select(['c.owner_id', 'c.callback_url', 'p.definition'])
        .where('c.conversation_id', '=', payload.conversation_id)
        .executeTakeFirst();
      const stored = (conv?.definition as { layers?: { post_call_actions?: unknown[] } } | undefined)?.layers?.post_call_actions?.[
        payload.index
      ];
      // A URL with a credential in it (`?token=`, a Slack webhook) is stored sealed (pals/layer-secrets.ts): opened only here.
      const parsed = PostCallAction.safeParse(unsealLayer(deps.secrets, stored));
      if (!conv || !parsed.success) return; // the PAL changed since: nothing to run
      const action: Action = parsed.data;
      const sendsBody = action.method !== 'GET' && action.method !== 'DELETE';
      const body = action.body !== undefined ? action.body : sendsBody ? { conversation_id: payload.conversation_id } : null;
      let status: 'success' | 'failed' | 'error';
      let response: { http_status: number; body: unknown };
      try {
        const res = await deps.fetch(action.url, {
          method: action.method,
          headers: { 'content-type': 'application/json', 'user-agent': 'palkit-post-call' },
          ...(sendsBody && body !== null ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        response = { http_status: res.status, body: await readBody(res) };
        status = res.ok ? 'success' : 'failed';
      } catch (error) {
        status = 'error';
        // No HTTP answer at all (unreachable, refused, timed out): status 0, as fetch reports a network
        // error, so that the callback keeps the spec's number (null broke receivers that parse it).
        response = { http_status: 0, body: error instanceof Error ? error.message : String(error) };
      }
      await emitConversationCallbacks(
        deps,
        { conversation_id: payload.conversation_id, owner_id: conv.owner_id, callback_url: conv.callback_url },
        [
          {
            conversation_id: payload.conversation_id,
            event_type: 'application.post_call_action_executed',
            message_type: 'application',
            timestamp: isoMillis(deps.clock.now()),
            properties: {
              tool_id: action.tool_id ?? `post_call_${payload.index}`,
              tool_name: action.tool_name,
              status,
              // A URL with a credential in it is reported by its origin only: the event is read back by the API.
              request: {
                url: looksLikeCredential(action.url) ? `${new URL(action.url).origin}/…` : action.url,
                method: action.method,
                body,
              },
              response,
            },
          },
        ],
      );
    },
  };
}
