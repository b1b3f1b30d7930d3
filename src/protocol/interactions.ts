// Interactions protocol: the app-messages exchanged with the PAL in the room (same shapes as the hosted
// product over Daily), plus palkit's `conversation.disclosure` extension. Anything unknown or malformed
// parses to null and is counted in `protocolStats`; nothing here throws into the page.
import * as z from 'zod/mini';

// Properties objects are loose: a newer PAL may add fields, and passing them through keeps
// `pal-protocol-message` listeners whole while the known fields are still checked.
const props = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/** Common envelope fields; `message_type` is 'conversation' (a missing one is read as that). */
const envelope = {
  message_type: z.optional(z.literal('conversation')),
  conversation_id: z.optional(z.string()),
  inference_id: z.optional(z.string()),
  seq: z.optional(z.number()),
  turn_idx: z.optional(z.number()),
};

function event<E extends string, P extends z.core.$ZodLooseShape>(eventType: E, shape: P) {
  return z.object({ ...envelope, event_type: z.literal(eventType), properties: props(shape) });
}
/** Events whose properties may be omitted entirely (read as `{}`). */
function bareEvent<E extends string, P extends z.core.$ZodLooseShape>(eventType: E, shape: P) {
  return z.object({ ...envelope, event_type: z.literal(eventType), properties: z._default(props(shape), {} as never) });
}

const Sensitivity = z.enum(['low', 'medium', 'high']);

// ---- PAL → client -------------------------------------------------------------------------------

export const Utterance = event('conversation.utterance', {
  role: z.enum(['replica', 'user']),
  speech: z.string(),
});
export const UtteranceStreaming = event('conversation.utterance.streaming', {
  /** palkit extension: `user` partials are the visitor's words as the service recognises them (never final). */
  role: z.enum(['replica', 'user']),
  /** Accumulated text so far. */
  speech: z.string(),
  final: z.boolean(),
  is_interrupted: z.optional(z.boolean()),
  content_index: z.optional(z.number()),
});
export const ReplicaStartedSpeaking = bareEvent('conversation.replica.started_speaking', {});
export const ReplicaStoppedSpeaking = bareEvent('conversation.replica.stopped_speaking', {
  duration: z.optional(z.nullable(z.number())),
  interrupted: z.optional(z.boolean()),
});
export const UserStartedSpeaking = bareEvent('conversation.user.started_speaking', {});
export const UserStoppedSpeaking = bareEvent('conversation.user.stopped_speaking', {
  /** palkit extension: how long the visitor had been silent when the service ended the turn. */
  silence_ms: z.optional(z.number()),
});
export const ReplicaInterrupted = bareEvent('conversation.replica_interrupted', {});
export const ToolCall = event('conversation.tool_call', {
  name: z.string().check(z.minLength(1)),
  /** JSON-encoded arguments, as the LLM produced them. */
  arguments: z.string(),
  tool_call_id: z.string().check(z.minLength(1)),
});
export const PerceptionToolCall = event('conversation.perception_tool_call', {
  name: z.string(),
  arguments: z.optional(z.unknown()),
});
export const PerceptionAnalysis = event('conversation.perception_analysis', { analysis: z.optional(z.unknown()) });
/** palkit extension: the AI disclosure (banner shown from `delivering`, dismissible once `delivered`). */
export const Disclosure = event('conversation.disclosure', {
  visual_disclosure: z.string(),
  verbal_disclosure: z.string(),
  state: z.enum(['delivering', 'delivered']),
});

const palOptions = [
  Utterance,
  UtteranceStreaming,
  ReplicaStartedSpeaking,
  ReplicaStoppedSpeaking,
  UserStartedSpeaking,
  UserStoppedSpeaking,
  ReplicaInterrupted,
  ToolCall,
  PerceptionToolCall,
  PerceptionAnalysis,
  Disclosure,
] as const;
export const PalMessage = z.discriminatedUnion('event_type', [...palOptions]);

// ---- client → PAL -------------------------------------------------------------------------------

export const Respond = event('conversation.respond', { text: z.string().check(z.minLength(1)) });
export const Echo = event('conversation.echo', {
  text: z.optional(z.string()),
  modality: z.optional(z.enum(['text', 'audio'])),
  audio: z.optional(z.string()),
  sample_rate: z.optional(z.number()),
  inference_id: z.optional(z.string()),
  done: z.optional(z.boolean()),
});
export const Interrupt = bareEvent('conversation.interrupt', {});
export const OverwriteLlmContext = event('conversation.overwrite_llm_context', { context: z.string() });
export const AppendLlmContext = event('conversation.append_llm_context', { context: z.string() });
export const SetSensitivity = event('conversation.sensitivity', {
  participant_pause_sensitivity: z.optional(Sensitivity),
  participant_interrupt_sensitivity: z.optional(Sensitivity),
});
export const ToolResult = event('conversation.tool_result', {
  tool_call_id: z.string().check(z.minLength(1)),
  /** A string, or an object the PAL serializes to JSON. */
  output: z.union([z.string(), z.record(z.string(), z.unknown())]),
  status: z.optional(z.enum(['success', 'error'])),
});
export const RealtimeApi = event('conversation.realtime_api', {});

const clientOptions = [Respond, Echo, Interrupt, OverwriteLlmContext, AppendLlmContext, SetSensitivity, ToolResult, RealtimeApi] as const;
export const ClientMessage = z.discriminatedUnion('event_type', [...clientOptions]);

export const InteractionMessageSchema = z.discriminatedUnion('event_type', [...palOptions, ...clientOptions]);

export type PalMessage = z.infer<typeof PalMessage>;
export type ClientMessage = z.infer<typeof ClientMessage>;
/** Every known interactions-protocol message, discriminated by `event_type`. */
export type InteractionMessage = PalMessage | ClientMessage;
export type InteractionEventType = InteractionMessage['event_type'];
/** The message with the given event type, e.g. `MessageOf<'conversation.utterance'>`. */
export type MessageOf<E extends InteractionEventType> = Extract<InteractionMessage, { event_type: E }>;
export type UtteranceMessage = MessageOf<'conversation.utterance'>;
export type UtteranceStreamingMessage = MessageOf<'conversation.utterance.streaming'>;
export type ToolCallMessage = MessageOf<'conversation.tool_call'>;
export type DisclosureMessage = MessageOf<'conversation.disclosure'>;
export type ReplicaStoppedSpeakingMessage = MessageOf<'conversation.replica.stopped_speaking'>;
export type RespondMessage = MessageOf<'conversation.respond'>;
export type ToolResultMessage = MessageOf<'conversation.tool_result'>;

const knownEventTypes: ReadonlySet<string> = new Set(
  [...palOptions, ...clientOptions].map((o) => o.shape.event_type.def.values[0] as string),
);

// ---- ignored-message accounting -------------------------------------------------------------------

export type IgnoreReason = 'unknown' | 'malformed';

/** Counts of messages the parsers ignored (for diagnostics; never thrown into the page). */
export const protocolStats = {
  ignored: 0,
  unknown: 0,
  malformed: 0,
  /** Event type of the last ignored message, when it had one. */
  lastIgnored: null as string | null,
  reset(): void {
    this.ignored = 0;
    this.unknown = 0;
    this.malformed = 0;
    this.lastIgnored = null;
  },
};

/** Record one ignored message (also used by the canvas for tool calls whose arguments are unusable). */
export function countIgnored(reason: IgnoreReason, eventType?: unknown): void {
  protocolStats.ignored++;
  protocolStats[reason]++;
  protocolStats.lastIgnored = typeof eventType === 'string' ? eventType : null;
}

// Several in-call parts receive the same raw object from the link; parse (and count) it once.
const parsed = new WeakMap<object, InteractionMessage | null>();

function classify(raw: unknown): InteractionMessage | null {
  const eventType = typeof raw === 'object' && raw !== null ? (raw as { event_type?: unknown }).event_type : undefined;
  if (typeof eventType !== 'string') {
    countIgnored('malformed');
    return null;
  }
  if (!knownEventTypes.has(eventType)) {
    countIgnored('unknown', eventType);
    return null;
  }
  const result = InteractionMessageSchema.safeParse(raw);
  if (!result.success) {
    countIgnored('malformed', eventType);
    return null;
  }
  const message = result.data as InteractionMessage;
  if (message.message_type === undefined) message.message_type = 'conversation';
  return message;
}

/**
 * Returns the message, typed by its `event_type`, when it is a well-formed interactions-protocol message
 * (either direction); otherwise null, and the message is counted in `protocolStats`.
 * The same raw object is parsed and counted once however many parts look at it.
 */
export function parseInteraction(raw: unknown): InteractionMessage | null {
  if (typeof raw !== 'object' || raw === null) return classify(raw);
  if (parsed.has(raw)) return parsed.get(raw) ?? null;
  const message = classify(raw);
  parsed.set(raw, message);
  return message;
}

/** A PAL → client message, or null (client → PAL messages also give null, uncounted when well-formed). */
export function parsePalMessage(raw: unknown): PalMessage | null {
  const m = parseInteraction(raw);
  return m && isPalMessage(m) ? m : null;
}

/** A client → PAL message, or null. */
export function parseClientMessage(raw: unknown): ClientMessage | null {
  const m = parseInteraction(raw);
  return m && !isPalMessage(m) ? m : null;
}

const palEventTypes: ReadonlySet<string> = new Set(palOptions.map((o) => o.shape.event_type.def.values[0] as string));
export function isPalMessage(m: InteractionMessage): m is PalMessage {
  return palEventTypes.has(m.event_type);
}

/** Build a client → PAL message with the envelope filled in. */
export function clientMessage<E extends ClientMessage['event_type']>(
  eventType: E,
  properties: Extract<ClientMessage, { event_type: E }>['properties'],
  conversationId?: string,
): Extract<ClientMessage, { event_type: E }> {
  return {
    message_type: 'conversation',
    event_type: eventType,
    ...(conversationId ? { conversation_id: conversationId } : {}),
    properties,
  } as Extract<ClientMessage, { event_type: E }>;
}
