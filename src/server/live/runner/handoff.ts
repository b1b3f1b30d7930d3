// Hands a freshly opened Daily room to the PAL runner: an owner meeting token for the bot, then one
// Standard Webhooks–signed POST with everything the bot needs (room, token, the PAL's resolved settings,
// a conversation-scoped token for the runner API). A runner that refuses, fails or is slow ends the
// conversation at once, so the visitor hears about it in the start answer instead of waiting alone.
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import type { ServiceDeps } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { clockTimeout } from '../../platform/time.js';
import { signWebhook } from '../../platform/webhooks/signing.js';
import { endConversation } from '../../resources/conversations/end-conversation.js';
import { PalUnavailableError } from '../../resources/conversations/daily-call-start.js';
import { disclosureFor, greetingFor, BUILT_IN_VERBAL_DISCLOSURE, BUILT_IN_VISUAL_DISCLOSURE } from '../agent/disclosure.js';
import {
  conversationFaceLink,
  isRecord,
  loadLiveConversation,
  type LiveConversation,
} from '../../resources/conversations/live-conversation.js';
import { finalizeConversation } from '../room/finalize.js';
import { botUserId, createBotToken } from '../../providers/conferencing/daily.js';
import { scheduleRunnerJoinDeadline } from '../conferencing/daily-deadlines.js';
import { signRunnerToken } from './conversation-token.js';
import type { RunnerHandoff } from './routes.js';
import { fieldHoldsSecret } from '../../resources/pals/secret-names.js';
import { looksLikeCredential } from '../../platform/log.js';
import { faceMediaLink } from '../../resources/faces/media-url.js';

export const RUNNER_TIMEOUT_MS = 6_000;
/** Why a refused handoff ends the conversation: the room is fine, starting the PAL failed. */
export const RUNNER_REFUSED_REASON = ShutdownReasons.startupException;

/** Layers without anything secret: no ciphertext (`*_encrypted`) and nothing named like a secret (`secret-names.ts`). */
export function publicLayers(layers: unknown): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v))
      return v.filter((x) => !(isRecord(x) && '_encrypted' in x) && !(typeof x === 'string' && looksLikeCredential(x))).map(strip);
    if (!isRecord(v)) return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !k.endsWith('_encrypted') && !fieldHoldsSecret(v, k, true))
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return isRecord(layers) ? (strip(layers) as Record<string, unknown>) : {};
}

export function runnerBody(
  deps: ServiceDeps,
  conv: LiveConversation,
  room: { url: string; botToken: string },
  expiresAt: Date,
): RunnerHandoff {
  const d = conv.pal.definition;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const languages = Array.isArray(d.languages)
    ? d.languages.filter((l): l is string => typeof l === 'string')
    : typeof conv.properties.language === 'string'
      ? [conv.properties.language]
      : [];
  const base = `${deps.config.publicUrl}/v2/conversations/${conv.conversationId}/runner`;
  return {
    conversation_id: conv.conversationId,
    room_url: room.url,
    bot_token: room.botToken,
    bot_user_id: botUserId(conv.pal.palId),
    expires_at: new Date(expiresAt).toISOString(),
    pal: {
      pal_id: conv.pal.palId,
      name: conv.pal.name,
      pipeline_mode: conv.pal.pipelineMode,
      system_prompt: text(d.system_prompt),
      greeting: greetingFor(conv),
      disclosure: {
        required: disclosureFor(conv) !== null,
        verbal: text(d.verbal_disclosure) ?? BUILT_IN_VERBAL_DISCLOSURE,
        visual: text(d.visual_disclosure) ?? BUILT_IN_VISUAL_DISCLOSURE,
      },
      languages,
      layers: publicLayers(d.layers),
      face_id: conv.faceId,
      // Absolute, like the room's face_rig_url, since the bot fetches it from elsewhere; with a token bound to the conversation.
      face_rig_url: conv.face.rigUrl
        ? faceMediaLink(
            deps.config.publicUrl,
            conv.face.rigUrl,
            conversationFaceLink(deps.secrets, { ...conv, expiresAt }, deps.clock.now()),
          )
        : null,
    },
    conversational_context: conv.conversationalContext,
    custom_greeting: conv.customGreeting,
    memory_stores: conv.memoryStores,
    properties: conv.properties,
    api: {
      base_url: deps.config.publicUrl,
      conversation_token: signRunnerToken(deps.secrets, conv.conversationId, expiresAt),
      knowledge_url: `${base}/knowledge`,
      transcript_url: `${base}/transcript`,
    },
  };
}

/** Resolves when the runner accepted the room; otherwise ends the conversation and throws PalUnavailableError. */
export async function handOffToRunner(
  deps: ServiceDeps,
  conversationId: string,
  room: { url: string; name: string },
  expiresAt: Date,
): Promise<void> {
  const runner = deps.config.palRunner;
  const apiKey = deps.config.daily.apiKey;
  if (!runner || !apiKey) return;
  let failure: string | null = null;
  try {
    const conv = await loadLiveConversation(deps.db, conversationId);
    if (!conv) throw new Error('conversation vanished before the handoff');
    const botToken = await createBotToken(
      { apiKey, apiUrl: deps.config.daily.apiUrl, fetch: deps.fetch },
      { room: room.name, exp: Math.floor(expiresAt.getTime() / 1000), userName: conv.pal.name, userId: botUserId(conv.pal.palId) },
    );
    const body = JSON.stringify(runnerBody(deps, conv, { url: room.url, botToken }, expiresAt));
    const id = newId('msg_', 20);
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    const response = await deps.fetch(runner.url, {
      method: 'POST',
      redirect: 'manual',
      // On the service's clock (a test moves it past the deadline instead of waiting it out).
      signal: clockTimeout(deps.clock, RUNNER_TIMEOUT_MS),
      maxBytes: 64 * 1024,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'palkit-runner-handoff/1',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(runner.secret, id, timestamp, body),
      },
      body,
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status > 299) failure = `the PAL runner answered ${response.status}`;
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
    failure = timedOut
      ? `the PAL runner did not answer within ${RUNNER_TIMEOUT_MS / 1000} s`
      : `the PAL runner could not be reached: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (failure === null) return scheduleRunnerJoinDeadline(deps, conversationId);
  deps.log.error('PAL runner handoff failed', { conversation_id: conversationId, error: failure });
  // Ends once (closing the room through the durable job), then the shutdown and empty transcript callbacks.
  await endConversation(deps, conversationId, RUNNER_REFUSED_REASON);
  await finalizeConversation(deps, conversationId, RUNNER_REFUSED_REASON).catch((error: unknown) =>
    deps.log.error('sending the end callbacks failed', {
      conversation_id: conversationId,
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  throw new PalUnavailableError(failure);
}
