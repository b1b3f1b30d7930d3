// Public deployment endpoints (no API key): init, start and their error codes, plus the deployment
// `customization` tree that the elements interpret. One schema per wire shape: the elements parse with
// these and the service validates and documents its routes with the same ones
// (src/server/platform/http/protocol-schema.ts). Browser-safe: zod/mini only.
import * as z from 'zod/mini';

export const Channel = z.enum(['widget', 'embed', 'landing-page']);
export type Channel = z.infer<typeof Channel>;

export const UnavailableReason = z.enum(['inactive', 'daily_limit', 'total_limit', 'busy']);
export type UnavailableReason = z.infer<typeof UnavailableReason>;

export const MAX_CUSTOMIZATION_BYTES = 64 * 1024;

const text = z.string().check(z.maxLength(4000));
const optionalText = z.optional(text);
const Copy = z.looseObject({ title: optionalText, description: optionalText, btn_title: optionalText });

/** Deployment customization: every key optional; unknown keys are kept (stored as given). */
export const Customization = z
  .looseObject({
    theme: z.optional(z.enum(['light', 'dark', 'auto'])),
    accent_color: optionalText,
    background_color: optionalText,
    text_color: optionalText,
    radius: z.optional(z.number().check(z.minimum(0), z.maximum(1000))),
    font_family: optionalText,
    show_haircheck: z.optional(z.boolean()),
    camera_on: z.optional(z.boolean()),
    preview: z.optional(Copy),
    haircheck: z.optional(Copy),
    after_call: z.optional(z.looseObject({ ...Copy.shape, redirect_url: optionalText })),
    widget: z.optional(
      z.looseObject({
        variant: z.optional(z.enum(['tiny', 'compact', 'full'])),
        corner: z.optional(z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left'])),
        text: optionalText,
      }),
    ),
    landing_page: z.optional(
      z.looseObject({
        template: z.optional(z.enum(['split', 'stacked', 'centered', 'spotlight', 'minimal'])),
        logo_url: optionalText,
        title: optionalText,
        description: optionalText,
        cta_links: z.optional(z.array(z.looseObject({ label: text, url: text })).check(z.maxLength(20))),
      }),
    ),
    magic_canvas: z.optional(z.looseObject({ accent_color: optionalText })),
    strings: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
    policy: z.optional(z.literal('eu')),
    /** false hides the small "AI" mark the elements show on the PAL's video (shown unless the owner says so). */
    ai_mark: z.optional(z.boolean()),
    /** Terms the visitor accepts before the call; the conversation keeps a receipt of them. */
    consent: z.optional(z.looseObject({ required: z.optional(z.boolean()), text: optionalText, terms_url: optionalText })),
    recording: z.optional(
      z.looseObject({
        enabled: z.optional(z.boolean()),
        destination_id: z.optional(z.string().check(z.regex(/^rd_[A-Za-z0-9]{1,61}$/, 'must look like a recording destination id (rd_…)'))),
      }),
    ),
  })
  .check(
    z.refine(
      (v) => new TextEncoder().encode(JSON.stringify(v)).length <= MAX_CUSTOMIZATION_BYTES,
      `must be at most ${MAX_CUSTOMIZATION_BYTES} bytes as JSON`,
    ),
  );
export type Customization = z.infer<typeof Customization>;

export const InitResponse = z.object({
  deployment_id: z.string(),
  channel: Channel,
  customization: Customization,
  has_password: z.boolean(),
  // Omitted when the PAL has no face (or no frame was extracted).
  thumbnail_video_url: z.optional(z.string()),
  thumbnail_image_url: z.optional(z.string()),
  limits: z.object({
    max_call_duration: z.nullable(z.number()),
    daily_call_limit_per_user: z.nullable(z.number()),
  }),
  captcha: z.nullable(z.object({ provider: z.literal('turnstile'), site_key: z.string() })),
  is_available: z.boolean(),
  unavailable_reason: z.nullable(UnavailableReason),
});
export type InitResponse = z.infer<typeof InitResponse>;

const bounded = (max: number) => z.string().check(z.maxLength(max));

/** Stable visitor identifiers (participant tags) for memory. */
export const MemoryStoreTags = z.array(z.string().check(z.minLength(1), z.maxLength(128))).check(z.maxLength(20));

export const StartBody = z.object({
  // null is read as absent (a form that clears the field).
  password: z.optional(z.nullable(bounded(256))),
  conversational_context: z.optional(bounded(20_000)),
  custom_greeting: z.optional(bounded(2_000)),
  pal_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  memory_stores: z.optional(MemoryStoreTags),
  captcha_token: z.optional(bounded(4096)),
  /** The deployment's consent text as the visitor saw and accepted it (where consent is required). */
  accepted_terms: z.optional(bounded(4000)),
  /** From the gate check: stands in for the password and captcha while it is valid. */
  gate_pass: z.optional(bounded(512)),
  /** The embedding site's signed word for who the visitor is: memory_stores count only with it (an HS256 JWT). */
  visitor_token: z.optional(bounded(4096)),
  /**
   * A random key the visitor's browser keeps (the elements make one and keep it in localStorage): starts are
   * rated per visitor with it, so an office behind one address is not held to one visitor's rate.
   */
  visitor_key: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/))),
});
export type StartBody = z.input<typeof StartBody>;

/** POST …/gate: the visitor's answers at the password step (the captcha token too, where there is one). */
export const GateBody = z.object({
  password: z.optional(z.nullable(bounded(256))),
  captcha_token: z.optional(bounded(4096)),
});
export type GateBody = z.input<typeof GateBody>;

export const GatePass = z.object({ gate_pass: z.string(), expires_at: z.string() });
export type GatePass = z.infer<typeof GatePass>;

/** The start response, the same as creating a conversation with the API. */
export const StartResponse = z.object({
  conversation_id: z.string(),
  conversation_name: z.string(),
  conversation_url: z.string(),
  status: z.enum(['active', 'ended']),
  // Omitted when no callback address was given.
  callback_url: z.optional(z.string()),
  created_at: z.string(),
  meeting_token: z.string(),
  // A local room whose PAL has a trained face: its rig.json, which the page fetches while it joins.
  face_rig_url: z.optional(z.string()),
});
export type StartResponse = z.infer<typeof StartResponse>;

/** Stable codes of the start endpoint's errors (body `{error: code}` or `{error: "code: detail"}`). */
export const StartErrorCode = z.enum([
  'deployment_not_found',
  'deployment_inactive',
  'origin_not_allowed',
  'password_required',
  'invalid_password',
  'captcha_required',
  'captcha_failed',
  'daily_limit',
  'total_limit',
  'busy',
  'too_many_attempts',
  'invalid_request',
  // A `pal_id` preview without the owner's x-api-key.
  'preview_requires_owner_key',
  // The deployment requires consent and the visitor did not accept its current terms.
  'consent_required',
  // 502: the video room could not be created; 503: the PAL of a Daily room could not be started.
  'conferencing_unavailable',
  'pal_unavailable',
  // 429: this address started too many calls of the deployment in a short time; too many of the
  // deployment's calls were started and never joined. 503: the service's database does not answer.
  'too_many_starts',
  'too_many_unjoined',
  'service_unavailable',
]);
export type StartErrorCode = z.infer<typeof StartErrorCode>;

export const ErrorBody = z.union([z.object({ error: z.string() }), z.object({ message: z.string() })]);
export type ErrorBody = z.infer<typeof ErrorBody>;
