// Magic Canvas over the interactions protocol: the `canvas_show_<component>` / `update_component` /
// `canvas_clear` actions carried by `conversation.tool_call`, each component's arguments with the
// renderer limits of the reference, and the values a card records with the interactions endpoint.
import * as z from 'zod/mini';
import { countIgnored } from './interactions.js';

export const canvasComponentNames = ['question', 'input', 'calendar', 'scheduling_embed', 'text', 'chart', 'alert'] as const;
export type CanvasComponentName = (typeof canvasComponentNames)[number];
export const canvasComponentVersion = 'v1';
export const canvasInteractionTypes = ['submit', 'skip', 'dismiss', 'clear', 'error', 'heartbeat'] as const;
export type CanvasInteractionType = (typeof canvasInteractionTypes)[number];

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const isoDate = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
  z.refine((s) => !Number.isNaN(Date.parse(s)), 'invalid date'),
);
const isoDateTime = z.string().check(
  z.minLength(10),
  z.maxLength(40),
  z.refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO-8601 time'),
);

/** Runtime controls every show-action accepts. The client may still adapt the slot to the viewport. */
const runtime = {
  layout: z.optional(z.object({ preferred_slot: z.optional(z.enum(['safe-area-right', 'safe-area-left'])) })),
  display_mode: z.optional(z.literal('inline')),
};

export const QuestionOption = z.object({ id: text(1, 64), label: text(1, 200) });
export const QuestionArgs = z.object({
  ...runtime,
  question: text(1, 500),
  options: z.array(QuestionOption).check(
    z.minLength(2),
    z.maxLength(10),
    z.refine((opts) => new Set(opts.map((o) => o.id)).size === opts.length, 'option ids must be unique'),
  ),
  /** Offer a free-text "Other" answer (its text is submitted as `other_text`). */
  allow_other: z.optional(z.boolean()),
  other_label: z.optional(text(1, 80)),
  multi_select: z.optional(z.boolean()),
  allow_skip: z.optional(z.boolean()),
});

export const InputArgs = z.object({
  ...runtime,
  prompt: text(1, 240),
  placeholder: z.optional(text(0, 160)),
  input_type: z.optional(z.enum(['text', 'email', 'number', 'tel'])),
  required: z.optional(z.boolean()),
  allow_skip: z.optional(z.boolean()),
});

export const CalendarSlot = z.union([
  isoDateTime,
  z.object({ start: isoDateTime, end: z.optional(isoDateTime), label: z.optional(text(1, 80)) }),
]);
export const CalendarArgs = z
  .object({
    ...runtime,
    title: text(1, 120),
    description: z.optional(text(0, 500)),
    mode: z.optional(z.enum(['date_picker', 'slot_picker', 'date_time', 'range'])),
    multi_select: z.optional(z.boolean()),
    /** Bounds of the selectable dates (inclusive). */
    date_range: z.optional(z.object({ start: isoDate, end: isoDate })),
    initial_month: z.optional(z.int().check(z.gte(1), z.lte(12))),
    initial_year: z.optional(z.int().check(z.gte(1970), z.lte(9999))),
    /** When given, only these dates can be picked. */
    available_dates: z.optional(z.array(isoDate).check(z.maxLength(366))),
    slots: z.optional(z.array(CalendarSlot).check(z.maxLength(100))),
    presets: z.optional(z.array(z.object({ label: text(1, 40), date: isoDate })).check(z.maxLength(8))),
  })
  .check(
    z.refine(
      (a) => !(a.mode === 'slot_picker' || a.mode === 'date_time') || (a.slots?.length ?? 0) > 0,
      'slot modes need at least one slot',
    ),
  );

/** An https URL whose host is not localhost, a metadata host or a private / loopback / link-local address. */
export function isSafeHttpsUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return false;
  if (host.startsWith('[')) return false; // IP literals of v6: never a public scheduling page
  const v4 = host.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
    if ((a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
      return false;
  }
  return host.includes('.');
}

export const SchedulingEmbedArgs = z.object({
  ...runtime,
  provider: z.optional(z.literal('calendly')),
  scheduling_url: z.string().check(z.maxLength(2048), z.refine(isSafeHttpsUrl, 'scheduling_url must be a public https URL')),
  title: z.optional(text(1, 120)),
});

export const TextArgs = z.object({
  ...runtime,
  title: z.optional(text(1, 120)),
  body: text(1, 4000),
  format: z.optional(z.enum(['plain', 'markdown'])),
});

export const ChartArgs = z.object({
  ...runtime,
  chart_type: z.optional(z.enum(['bar', 'line', 'pie'])),
  data: z
    .array(z.object({ label: text(1, 80), value: z.number().check(z.refine(Number.isFinite, 'value must be finite')) }))
    .check(z.minLength(1), z.maxLength(12)),
  title: z.optional(text(1, 120)),
  x_label: z.optional(text(1, 80)),
  y_label: z.optional(text(1, 80)),
});

export const AlertArgs = z.object({
  ...runtime,
  severity: z.optional(z.enum(['info', 'success', 'warning', 'error'])),
  body: text(1, 1200),
  title: z.optional(text(1, 120)),
  auto_dismiss_seconds: z.optional(z.int().check(z.gte(1), z.lte(120))),
});

export const canvasArgSchemas = {
  question: QuestionArgs,
  input: InputArgs,
  calendar: CalendarArgs,
  scheduling_embed: SchedulingEmbedArgs,
  text: TextArgs,
  chart: ChartArgs,
  alert: AlertArgs,
} as const;

export type QuestionArgs = z.infer<typeof QuestionArgs>;
export type InputArgs = z.infer<typeof InputArgs>;
export type CalendarArgs = z.infer<typeof CalendarArgs>;
export type CalendarSlot = z.infer<typeof CalendarSlot>;
export type SchedulingEmbedArgs = z.infer<typeof SchedulingEmbedArgs>;
export type TextArgs = z.infer<typeof TextArgs>;
export type ChartArgs = z.infer<typeof ChartArgs>;
export type AlertArgs = z.infer<typeof AlertArgs>;
export type CanvasArgs<C extends CanvasComponentName> = z.infer<(typeof canvasArgSchemas)[C]>;

/** A card to show: one member per component, discriminated by `component`. */
export type CanvasCardSpec = { [C in CanvasComponentName]: { component: C; args: CanvasArgs<C> } }[CanvasComponentName];

export type CanvasAction =
  | ({ kind: 'show'; toolCallId: string } & CanvasCardSpec)
  | { kind: 'update'; toolCallId: string; patch: Record<string, unknown>; targetToolCallId?: string }
  | { kind: 'clear'; toolCallId: string }
  /** A canvas action that cannot be shown: nothing renders and the client records an `error` interaction. */
  | { kind: 'invalid'; toolCallId: string; component: string; code: 'invalid_arguments' | 'unknown_component'; message: string };

export function isCanvasComponent(name: string): name is CanvasComponentName {
  return (canvasComponentNames as readonly string[]).includes(name);
}

/** `canvas.<name>`, the component id recorded with every interaction. */
export function canvasComponentId(name: string): string {
  return `canvas.${name}`;
}

type Issue = {
  path: PropertyKey[];
  message: string;
  code?: string;
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
  origin?: unknown;
};

// zod/mini ships without locale messages (weight); say the limit that was broken in a few words instead.
function describeIssue(i: Issue): string {
  const unit = i.origin === 'string' ? ' characters' : i.origin === 'array' ? ' items' : '';
  if (i.code === 'too_small') return `must be at least ${String(i.minimum)}${unit}`;
  if (i.code === 'too_big') return `must be at most ${String(i.maximum)}${unit}`;
  if (i.code === 'invalid_type') return `expected ${String(i.expected)}`;
  if (i.code === 'invalid_value') return 'not an allowed value';
  return i.message;
}

function describeIssues(error: { issues: ReadonlyArray<Issue> }, under: PropertyKey[] = []): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const path = [...under, ...i.path];
      return path.length ? `${path.map(String).join('.')}: ${describeIssue(i)}` : describeIssue(i);
    })
    .join('; ')
    .slice(0, 500);
}

/** Validate a component's arguments (a show-action's, or a card's after an update patch). */
export function validateCanvasArgs<C extends CanvasComponentName>(
  component: C,
  args: unknown,
): { ok: true; spec: CanvasCardSpec } | { ok: false; message: string } {
  const result = canvasArgSchemas[component].safeParse(args);
  if (!result.success) return { ok: false, message: describeIssues(result.error) };
  return { ok: true, spec: { component, args: result.data } as CanvasCardSpec };
}

function parseArguments(json: string): Record<string, unknown> | null {
  if (json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Reads a tool call as a Magic Canvas action. Returns null when the tool is not a canvas action (the page's
 * own tools); `kind: 'invalid'` (counted as ignored) when it is one but cannot be shown.
 */
export function parseCanvasAction(call: { name: string; arguments: string; tool_call_id: string }): CanvasAction | null {
  const { name, tool_call_id: toolCallId } = call;
  const isShow = name.startsWith('canvas_show_');
  if (!isShow && name !== 'update_component' && name !== 'canvas_clear') return null;
  const component = isShow ? name.slice('canvas_show_'.length) : name;
  const invalid = (code: 'invalid_arguments' | 'unknown_component', message: string): CanvasAction => {
    countIgnored('malformed', 'conversation.tool_call');
    return { kind: 'invalid', toolCallId, component, code, message };
  };
  const args = parseArguments(call.arguments);
  if (!args) return invalid('invalid_arguments', 'arguments are not a JSON object');
  if (name === 'canvas_clear') return { kind: 'clear', toolCallId };
  if (name === 'update_component') {
    const patch = args.patch;
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
      return invalid('invalid_arguments', 'patch: expected an object');
    const target = args.target_tool_call_id;
    if (target !== undefined && typeof target !== 'string') return invalid('invalid_arguments', 'target_tool_call_id: expected a string');
    return { kind: 'update', toolCallId, patch: patch as Record<string, unknown>, ...(target ? { targetToolCallId: target } : {}) };
  }
  if (!isCanvasComponent(component)) return invalid('unknown_component', `unknown canvas component "${component.slice(0, 64)}"`);
  const checked = validateCanvasArgs(component, args);
  if (!checked.ok) return invalid('invalid_arguments', checked.message);
  return { kind: 'show', toolCallId, ...checked.spec };
}

// ---- interaction values ---------------------------------------------------------------------------

/**
 * What a card may record, defined once: the elements' cards render and trim to these, and the service's
 * interactions endpoint refuses what is past them. The spec names none of them; a chosen option id is
 * one of the card's own `options[].id` (at most 64 above), and the free texts match the fields the
 * cards render.
 */
export const canvasValueLimits = {
  /** `selected_option_ids[]`: the ids of the question's options. */
  optionId: 64,
  /** `other_text`: the question's free "Other" answer. */
  otherText: 500,
  /** `value` of the input card. */
  inputValue: 2000,
  /** `event_uri`, `invitee_uri` of a scheduling booking. */
  schedulingUri: 2048,
  /** The whole `value`, as JSON. */
  valueBytes: 16 * 1024,
} as const;

const isoDateOrTime = z.union([isoDate, isoDateTime]);

export const QuestionSubmitValue = z
  .object({
    selected_option_ids: z.array(text(1, canvasValueLimits.optionId)).check(z.maxLength(10)),
    other_text: z.optional(text(1, canvasValueLimits.otherText)),
    skipped: z.literal(false),
  })
  .check(
    z.refine((v) => v.selected_option_ids.length > 0 || Boolean(v.other_text?.trim()), 'choose at least one option or give other_text'),
  );
export const InputSubmitValue = z.object({ value: z.union([z.string().check(z.maxLength(canvasValueLimits.inputValue)), z.number()]) });
export const CalendarSubmitValue = z.union([
  z.object({ selected_date: isoDate }),
  z.object({ selected_slot: isoDateTime }),
  z.object({ selected_slots: z.array(isoDateTime).check(z.minLength(1), z.maxLength(100)) }),
  z.object({
    selected_range: z
      .object({ start: isoDateOrTime, end: isoDateOrTime })
      .check(z.refine((r) => r.start <= r.end, 'start must not be after end')),
  }),
]);
const calendarAnswers = ['selected_date', 'selected_slot', 'selected_slots', 'selected_range'] as const;
export const SchedulingSubmitValue = z.object({
  event_uri: z.optional(z.string().check(z.maxLength(canvasValueLimits.schedulingUri))),
  invitee_uri: z.optional(z.string().check(z.maxLength(canvasValueLimits.schedulingUri))),
});
export const EmptyValue = z.object({});
export const ErrorValue = z.object({ code: z.string(), message: z.string() });

const submitSchemas: Partial<Record<CanvasComponentName, z.ZodMiniType>> = {
  question: QuestionSubmitValue,
  input: InputSubmitValue,
  calendar: CalendarSubmitValue,
  scheduling_embed: SchedulingSubmitValue,
};

/** Read-only cards record only lifecycle interactions. */
const lifecycleOnly: ReadonlySet<CanvasComponentName> = new Set(['text', 'chart', 'alert']);

/**
 * Why an interaction's `value` is wrong for its component, version and type, or null when it is fine.
 * The service answers 400 with this reason; the elements check what they are about to send with it.
 */
export function canvasValueProblem(component: string, version: string, type: string, value: unknown): string | null {
  const name = component.startsWith('canvas.') ? component.slice(7) : '';
  if (!isCanvasComponent(name)) return `component: unknown component ${component.slice(0, 64)}`;
  if (version !== canvasComponentVersion) return `component_version: ${component} has only version ${canvasComponentVersion}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'value: expected an object';
  if (JSON.stringify(value).length > canvasValueLimits.valueBytes) return `value: larger than ${canvasValueLimits.valueBytes} bytes`;
  if (lifecycleOnly.has(name) && (type === 'submit' || type === 'skip'))
    return `type: ${component} only accepts dismiss, clear, error and heartbeat`;
  if (type === 'error') {
    const checked = ErrorValue.safeParse(value);
    return checked.success ? null : describeIssues(checked.error, ['value']);
  }
  if (type !== 'submit') return null;
  if (name === 'calendar' && calendarAnswers.filter((k) => k in value).length !== 1)
    return `value: expected exactly one of ${calendarAnswers.join(', ')}`;
  const schema = submitSchemas[name];
  if (!schema) return `type: ${component} has nothing to submit`;
  const checked = schema.safeParse(value);
  return checked.success ? null : describeIssues(checked.error, ['value']);
}

/** Whether `value` is a valid value for this component and interaction type (used by both sides). */
export function isValidInteractionValue(component: string, type: CanvasInteractionType, value: unknown): boolean {
  return (
    canvasValueProblem(component.startsWith('canvas.') ? component : canvasComponentId(component), canvasComponentVersion, type, value) ===
    null
  );
}

function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `ci_{tool_call_id}_{type}_{uuid}`, kept within the endpoint's 128 characters. */
export function newInteractionId(toolCallId: string, type: CanvasInteractionType): string {
  const room = 128 - 'ci___'.length - type.length - 36;
  return `ci_${toolCallId.slice(0, room)}_${type}_${uuid()}`;
}
