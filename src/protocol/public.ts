// Public deployment endpoints (no API key): init, start and their error bodies, plus the deployment
// `customization` tree that the elements interpret. Browser-safe: zod/mini only.
import * as z from 'zod/mini';

export const Channel = z.enum(['widget', 'embed', 'landing-page']);
export type Channel = z.infer<typeof Channel>;

export const UnavailableReason = z.enum(['inactive', 'daily_limit', 'total_limit', 'busy']);
export type UnavailableReason = z.infer<typeof UnavailableReason>;

const Copy = z.object({
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  btn_title: z.optional(z.string()),
});

/** Deployment customization: every key optional; unknown keys kept so newer services stay readable. */
export const Customization = z.looseObject({
  theme: z.optional(z.enum(['light', 'dark', 'auto'])),
  accent_color: z.optional(z.string()),
  background_color: z.optional(z.string()),
  text_color: z.optional(z.string()),
  radius: z.optional(z.number()),
  font_family: z.optional(z.string()),
  show_haircheck: z.optional(z.boolean()),
  camera_on: z.optional(z.boolean()),
  preview: z.optional(Copy),
  haircheck: z.optional(Copy),
  after_call: z.optional(z.object({ ...Copy.shape, redirect_url: z.optional(z.string()) })),
  widget: z.optional(z.object({
    variant: z.optional(z.enum(['tiny', 'compact', 'full'])),
    corner: z.optional(z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left'])),
    text: z.optional(z.string()),
  })),
  landing_page: z.optional(z.object({
    template: z.optional(z.enum(['split', 'stacked', 'centered', 'spotlight', 'minimal'])),
    logo_url: z.optional(z.string()),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    cta_links: z.optional(z.array(z.object({ label: z.string(), url: z.string() }))),
  })),
  magic_canvas: z.optional(z.object({ accent_color: z.optional(z.string()) })),
  strings: z.optional(z.record(z.string(), z.record(z.string(), z.string()))),
});
export type Customization = z.infer<typeof Customization>;

export const InitResponse = z.object({
  deployment_id: z.string(),
  channel: Channel,
  customization: Customization,
  has_password: z.boolean(),
  // Omitted by the service when the PAL has no face; an absent field means the same as null.
  thumbnail_video_url: z.optional(z.nullable(z.string())),
  thumbnail_image_url: z.optional(z.nullable(z.string())),
  limits: z.object({
    max_call_duration: z.nullable(z.number()),
    daily_call_limit_per_user: z.nullable(z.number()),
  }),
  captcha: z.nullable(z.object({ provider: z.literal('turnstile'), site_key: z.string() })),
  is_available: z.boolean(),
  unavailable_reason: z.nullable(UnavailableReason),
});
export type InitResponse = z.infer<typeof InitResponse>;

export const StartBody = z.object({
  password: z.optional(z.string()),
  conversational_context: z.optional(z.string()),
  custom_greeting: z.optional(z.string()),
  pal_id: z.optional(z.string()),
  memory_stores: z.optional(z.array(z.string())),
  captcha_token: z.optional(z.string()),
});
export type StartBody = z.infer<typeof StartBody>;

export const StartResponse = z.object({
  conversation_id: z.string(),
  conversation_name: z.string(),
  conversation_url: z.string(),
  status: z.string(),
  callback_url: z.nullable(z.optional(z.string())),
  created_at: z.string(),
  meeting_token: z.nullable(z.optional(z.string())),
});
export type StartResponse = z.infer<typeof StartResponse>;

/** Stable codes of the start endpoint's errors (body `{error: code}`; 400 is `invalid_request: …`). */
export const StartErrorCode = z.enum([
  'deployment_not_found', 'deployment_inactive', 'origin_not_allowed', 'password_required', 'invalid_password',
  'captcha_required', 'captcha_failed', 'daily_limit', 'total_limit', 'busy', 'too_many_attempts', 'invalid_request',
  // 503: the PAL of a Daily room could not be started (its runner refused); shown on the error screen.
  'pal_unavailable',
]);
export type StartErrorCode = z.infer<typeof StartErrorCode>;

export const ErrorBody = z.union([z.object({ error: z.string() }), z.object({ message: z.string() })]);
export type ErrorBody = z.infer<typeof ErrorBody>;

export const CanvasInteractionResponse = z.object({ success: z.boolean() });
