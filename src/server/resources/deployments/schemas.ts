// Wire shapes of deployments: the keyed resource, its `limits` and `customization`, and the public
// init/start bodies, which are the protocol's (src/protocol/public.ts).
import { z } from '@hono/zod-openapi';
import {
  Channel as ProtocolChannel,
  Customization as ProtocolCustomization,
  GateBody,
  GatePass,
  InitResponse,
  StartBody,
} from '../../../protocol/public.js';
import { protocolSchema } from '../../platform/http/protocol-schema.js';

export const DeploymentId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^d[a-z0-9]+$/, 'must look like a deployment id (d…)')
  .openapi({ param: { name: 'deployment_id', in: 'path' }, example: 'd4k9x2m7q1w8e3' });

export const Channel = z.enum(ProtocolChannel.options).openapi({ description: 'Where the deployment is shown' });
export const DeploymentStatus = z.enum(['draft', 'active', 'inactive']);

const count = (description: string) => z.number().int().min(0).max(1_000_000_000).nullable().optional().openapi({ description });

export const Limits = z
  .object({
    max_call_duration: z
      .number()
      .int()
      .min(10)
      .max(86_400)
      .nullable()
      .optional()
      .openapi({ description: 'Longest call in seconds; each conversation ends after it' }),
    daily_call_limit_per_user: count('Calls one visitor (one client address) may start per UTC day'),
    daily_call_limit: count('Calls the deployment may start per UTC day, all visitors together'),
    total_call_limit: count('Calls the deployment may ever start (compared with usage_total)'),
    max_concurrent_calls: count('Calls that may run at the same time; further starts answer 429 busy'),
    participant_left_timeout: z.number().int().min(0).max(3600).nullable().optional().openapi({
      description:
        'Seconds a conversation stays open after the visitor left (the End button, a closed tab) before it ends and sends its end callbacks; default 60',
    }),
    start_rate_per_minute: z.number().min(0).max(100_000).nullable().optional().openapi({
      description:
        'Starts one client address may make per minute (with a small burst); absent: the service default (10, PALKIT_START_RATE_PER_MINUTE); null: no rate. Further starts answer 429 too_many_starts with Retry-After',
    }),
    max_unjoined_calls: z.number().int().min(0).max(1_000_000).nullable().optional().openapi({
      description:
        'Local conversations that may be started and not joined yet; absent: the service default (20, PALKIT_MAX_UNJOINED_CALLS); null: no cap. Further starts answer 429 too_many_unjoined with Retry-After',
    }),
    captcha_enabled: z
      .boolean()
      .optional()
      .openapi({ description: 'Visitors must pass a Cloudflare Turnstile check before starting (needs PALKIT_TURNSTILE_SITE_KEY/SECRET)' }),
  })
  .strict()
  .openapi('DeploymentLimits', {
    description:
      'Call limits of a deployment; absent or null means unlimited, except start_rate_per_minute and max_unjoined_calls, which have service defaults when absent',
  });
export type Limits = z.infer<typeof Limits>;

/** Known keys are typed (so the elements can rely on them); anything else is stored as given. */
export const Customization = protocolSchema(ProtocolCustomization, 'DeploymentCustomization', {
  description: 'Visual and conversation settings read by the elements; stored as given (at most 64 KB as JSON)',
  properties: {
    policy:
      "The conversations' `policy`: `eu` delivers the PAL's disclosures when its disclosure is `auto` (set it where visitors in the EU may call: the EU AI Act's Article 50 applies from 2 August 2026)",
    ai_mark:
      'The small "AI" mark on the PAL\'s video, shown in every call (as generated videos carry one) whatever the disclosure; only `false` hides it',
    recording:
      'Every conversation of this deployment is recorded when `enabled` (the visitor is told); `destination_id` is one of your recording destinations and is not shown to visitors',
    strings: 'Per-language overrides of the elements\' texts: `{ "de": { "join": "Beitreten" } }`',
  },
});

export const Origin = z
  .string()
  .max(300)
  .refine((value) => normaliseOrigin(value) !== null, 'must be an origin (scheme://host[:port])');

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

export const AllowedOrigins = z
  .array(Origin)
  .max(100)
  .openapi({ description: 'Origins that may start widget or embed calls; empty allows any' });
export const Password = z.string().min(1).max(256);
export const VisitorTokenSecret = z.string().min(32).max(512).openapi({
  description:
    "Signs visitor tokens (HS256 JWTs) that the embedding site's backend makes, so a public start's memory_stores count (docs/embedding.md); write-only, at least 32 characters",
});
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
    visitor_token_secret: VisitorTokenSecret.nullable().optional(),
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
    has_visitor_token_secret: z.boolean().openapi({ description: 'Whether a visitor_token_secret is set (the secret is never returned)' }),
    customization: z.record(z.string(), z.unknown()),
    limits: Limits,
    allowed_origins: z.array(z.string()),
    callback_url: z.string().nullable(),
    thumbnail_video_url: z.string().optional().openapi({
      description:
        "Silent 3 s preview of the PAL's face (never its training clip), its address carrying a token of yours for an hour or two; omitted when the PAL has no face",
    }),
    thumbnail_image_url: z.string().optional().openapi({
      description: "Still of the PAL's face, addressed as thumbnail_video_url; omitted when the PAL has no face or no still was made",
    }),
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

export const DeploymentInit = protocolSchema(InitResponse, 'DeploymentInit', {
  description: 'What an element needs before a call; answered only to pages on allowed_origins (403 origin_not_allowed)',
  properties: {
    thumbnail_video_url:
      "Silent 3 s preview of the PAL's face (made from its training clip, never the clip), with a token bound to this deployment for an hour or two; omitted when the PAL has no face",
    thumbnail_image_url:
      "Still of the PAL's face (made from its clip or photo), addressed as thumbnail_video_url; omitted when the PAL has no face or no still was made",
    unavailable_reason: 'Why a call cannot start now (is_available false)',
  },
});

export const StartDeployment = protocolSchema(StartBody, 'StartDeployment', {
  properties: {
    password: 'Required when the deployment has a password',
    conversational_context: 'Per-call context forwarded to the PAL',
    pal_id: "Preview only: another of the owner's PALs; needs the owner's x-api-key",
    memory_stores:
      "Stable visitor identifiers; a memory_store_id is refused. They count only when `visitor_token` vouches for them (or with the owner's x-api-key); otherwise they are ignored",
    visitor_token:
      "An HS256 JWT the embedding site's backend signed with the deployment's visitor_token_secret: `exp` (at most 24 h ahead) and the visitor's identifiers in `memory_stores` (or `sub`)",
    captcha_token: 'The Turnstile token, required when the deployment has a captcha',
    gate_pass: 'From POST …/gate: stands in for the password and the captcha token until it expires',
    visitor_key:
      "A random key the visitor's browser keeps (the elements send one): starts are then rated per visitor at the deployment's rate, the visitors of one address together at PALKIT_START_RATE_PER_ADDRESS_PER_MINUTE (60); without it the address is held to the deployment's rate",
  },
});

export const GateCheck = protocolSchema(GateBody, 'DeploymentGateBody', {
  properties: {
    password: 'The password the visitor entered',
    captcha_token: 'The Turnstile token, required when the deployment has a captcha',
  },
});
export const GatePassed = protocolSchema(GatePass, 'DeploymentGatePass', {
  properties: {
    gate_pass: 'Send it as `gate_pass` to start instead of the password and captcha token',
    expires_at: 'When the pass stops being accepted (15 minutes)',
  },
});
