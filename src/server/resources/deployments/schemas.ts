// Wire shapes of deployments: the keyed resource, its `limits` and `customization`, and the public
// init/start bodies (CONTRACTS.md).
import { z } from '@hono/zod-openapi';
import { MemoryStoreTags } from '../conversations/schemas.js';

export const MAX_CUSTOMIZATION_BYTES = 64 * 1024;

export const DeploymentId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^d[a-z0-9]+$/, 'must look like a deployment id (d…)')
  .openapi({ param: { name: 'deployment_id', in: 'path' }, example: 'd4k9x2m7q1w8e3' });

export const Channel = z.enum(['widget', 'embed', 'landing-page']).openapi({ description: 'Where the deployment is shown' });
export const DeploymentStatus = z.enum(['draft', 'active', 'inactive']);

const count = (description: string) => z.number().int().min(0).max(1_000_000_000).nullable().optional().openapi({ description });

export const Limits = z
  .object({
    max_call_duration: z.number().int().min(10).max(86_400).nullable().optional().openapi({ description: 'Longest call in seconds; each conversation ends after it' }),
    daily_call_limit_per_user: count('Calls one visitor (one client address) may start per UTC day'),
    daily_call_limit: count('Calls the deployment may start per UTC day, all visitors together'),
    total_call_limit: count('Calls the deployment may ever start (compared with usage_total)'),
    max_concurrent_calls: count('Calls that may run at the same time; further starts answer 429 busy'),
    participant_left_timeout: z.number().int().min(0).max(3600).nullable().optional().openapi({
      description: 'Seconds a conversation stays open after the visitor left (the End button, a closed tab) before it ends and sends its end callbacks; default 60',
    }),
    captcha_enabled: z.boolean().optional().openapi({ description: 'Visitors must pass a Cloudflare Turnstile check before starting (needs PALKIT_TURNSTILE_SITE_KEY/SECRET)' }),
  })
  .strict()
  .openapi('DeploymentLimits', { description: 'Call limits of a deployment; absent or null means unlimited' });
export type Limits = z.infer<typeof Limits>;

const text = z.string().max(4000);
const copy = z.looseObject({ title: text.optional(), description: text.optional(), btn_title: text.optional() });

/** Known keys are typed loosely (so the elements can rely on them); anything else is stored as given. */
export const Customization = z
  .looseObject({
    theme: z.enum(['light', 'dark', 'auto']).optional(),
    accent_color: text.optional(),
    background_color: text.optional(),
    text_color: text.optional(),
    radius: z.number().min(0).max(1000).optional(),
    font_family: text.optional(),
    show_haircheck: z.boolean().optional(),
    camera_on: z.boolean().optional(),
    preview: copy.optional(),
    haircheck: copy.optional(),
    after_call: copy.extend({ redirect_url: text.optional() }).optional(),
    widget: z.looseObject({ variant: z.enum(['tiny', 'compact', 'full']).optional(), corner: z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left']).optional(), text: text.optional() }).optional(),
    landing_page: z
      .looseObject({
        template: z.enum(['split', 'stacked', 'centered', 'spotlight', 'minimal']).optional(),
        logo_url: text.optional(),
        title: text.optional(),
        description: text.optional(),
        cta_links: z.array(z.looseObject({ label: text, url: text })).max(20).optional(),
      })
      .optional(),
    magic_canvas: z.looseObject({ accent_color: text.optional() }).optional(),
    strings: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    policy: z.literal('eu').optional().openapi({ description: "The conversations' `policy`: `eu` delivers the PAL's disclosures when its disclosure is `auto`" }),
    recording: z
      .looseObject({
        enabled: z.boolean().optional().openapi({ description: 'Every conversation of this deployment is recorded (the visitor is told)' }),
        destination_id: z.string().min(2).max(64).regex(/^rd_[A-Za-z0-9]+$/, 'must look like a recording destination id (rd_…)').optional(),
      })
      .optional(),
  })
  .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_CUSTOMIZATION_BYTES, `must be at most ${MAX_CUSTOMIZATION_BYTES} bytes as JSON`)
  .openapi('DeploymentCustomization', { description: 'Visual and conversation settings read by the elements (CONTRACTS.md); stored as given' });

/** `scheme://host[:port]`, nothing else; stored in the browser's serialisation (lower-case host, no default port). */
export const Origin = z.string().max(300).refine((value) => normaliseOrigin(value) !== null, 'must be an origin (scheme://host[:port])');

export function normaliseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/' || value.endsWith('/') || !url.hostname) return null;
  return url.origin;
}

export const AllowedOrigins = z.array(Origin).max(100).openapi({ description: 'Origins that may start widget or embed calls; empty allows any' });
export const Password = z.string().min(1).max(256);
export const CallbackUrl = z
  .string()
  .url()
  .max(2048)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL')
  .openapi({ description: 'palkit extension: conversations started from this deployment send their callbacks here' });

export const CreateDeployment = z
  .object({
    pal_id: z.string().min(1).max(64).openapi({ description: 'One of your PALs' }),
    channel: Channel,
    name: z.string().max(200).optional(),
    password: Password.nullable().optional().openapi({ description: 'Visitors must enter it; stored hashed and never returned' }),
    customization: Customization.optional(),
    limits: Limits.optional(),
    allowed_origins: AllowedOrigins.optional(),
    callback_url: CallbackUrl.nullable().optional(),
  })
  .strict()
  .openapi('CreateDeployment');

export const Deployment = z
  .object({
    deployment_id: z.string(),
    pal_id: z.string(),
    channel: Channel,
    status: DeploymentStatus,
    name: z.string(),
    has_password: z.boolean(),
    customization: z.record(z.string(), z.unknown()),
    limits: Limits,
    allowed_origins: z.array(z.string()),
    callback_url: z.string().nullable(),
    thumbnail_video_url: z.string().optional().openapi({ description: "Preview video of the PAL's face; omitted when the PAL has no face" }),
    thumbnail_image_url: z.string().optional().openapi({ description: "Preview image of the PAL's face; omitted when the PAL has no face or no frame was extracted" }),
    usage_total: z.number().int(),
    usage_today: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Deployment');

export const DeploymentList = z.object({ data: z.array(Deployment), total_count: z.number().int() }).openapi('DeploymentList');
export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const UnavailableReason = z.enum(['inactive', 'daily_limit', 'total_limit', 'busy']);

export const DeploymentInit = z
  .object({
    deployment_id: z.string(),
    channel: Channel,
    customization: z.record(z.string(), z.unknown()),
    has_password: z.boolean(),
    thumbnail_video_url: z.string().optional().openapi({ description: "Preview video of the PAL's face; omitted when the PAL has no face" }),
    thumbnail_image_url: z.string().optional().openapi({ description: "Preview image of the PAL's face; omitted when the PAL has no face or no frame was extracted" }),
    limits: z.object({ max_call_duration: z.number().nullable(), daily_call_limit_per_user: z.number().nullable() }),
    captcha: z.object({ provider: z.literal('turnstile'), site_key: z.string() }).nullable(),
    is_available: z.boolean(),
    unavailable_reason: UnavailableReason.nullable(),
  })
  .openapi('DeploymentInit');

export const StartDeployment = z
  .object({
    password: z.string().max(256).nullable().optional(),
    conversational_context: z.string().max(20_000).optional(),
    custom_greeting: z.string().max(2_000).optional(),
    pal_id: z.string().min(1).max(64).optional().openapi({ description: 'Preview only: another of the owner\'s PALs; needs the owner\'s x-api-key' }),
    memory_stores: MemoryStoreTags.optional().openapi({ description: 'Stable visitor identifiers; a memory_store_id is refused' }),
    captcha_token: z.string().max(4096).optional(),
  })
  .openapi('StartDeployment');
