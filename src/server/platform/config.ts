// Service configuration, parsed once from the environment (DESIGN.md's run contract); everything else receives it.
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { chooseLocalVoice, type LocalVoice } from './local-voice.js';

const optionalString = z.string().trim().min(1).optional().catch(undefined);

const EnvSchema = z.object({
  PALKIT_DATA: z.string().default('./.palkit/data'),
  DATABASE_URL: optionalString,
  PALKIT_PGLITE_IMAGE: optionalString,
  PALKIT_API_KEYS: optionalString,
  PALKIT_PUBLIC_URL: optionalString,
  PALKIT_OUTBOUND_ALLOW: optionalString,
  PALKIT_TURNSTILE_SITE_KEY: optionalString,
  PALKIT_TURNSTILE_SECRET: optionalString,
  PALKIT_TURNSTILE_VERIFY_URL: z.string().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  PALKIT_DAILY_API_KEY: optionalString,
  PALKIT_DAILY_API_URL: z.string().url().default('https://api.daily.co/v1'),
  PALKIT_DAILY_WEBHOOK_SECRET: optionalString,
  PALKIT_PAL_RUNNER_URL: z
    .string()
    .trim()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PALKIT_PAL_RUNNER_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'must be a Standard Webhooks secret (whsec_ followed by base64)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PALKIT_SECRET: optionalString,
  PALKIT_SECRET_FILE: optionalString,
  PALKIT_TRUST_PROXY: z.enum(['0', '1', 'true', 'false']).optional().catch(undefined),
  PALKIT_PAL_RUNNER_JOIN_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  PALKIT_DAILY_RUNNER_PAGES: z.coerce.number().int().min(0).max(64).default(2),
  PALKIT_CHROMIUM: z.string().trim().min(1).default('/usr/bin/chromium'),
  PALKIT_DAILY_RUNNER_ENTRY: optionalString,
  PALKIT_JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  PALKIT_LLM_BASE_URL: optionalString,
  PALKIT_LLM_API_KEY: optionalString,
  PALKIT_LLM_MODEL: optionalString,
  PALKIT_VISION_BASE_URL: optionalString,
  PALKIT_VISION_API_KEY: optionalString,
  PALKIT_VISION_MODEL: optionalString,
  PALKIT_TTS_BASE_URL: optionalString,
  PALKIT_TTS_API_KEY: optionalString,
  PALKIT_TTS_MODEL: optionalString,
  PALKIT_LOCAL_VOICE: z.enum(['auto', 'wasm', 'native']).default('auto'),
  PALKIT_STT_BASE_URL: optionalString,
  PALKIT_STT_API_KEY: optionalString,
  PALKIT_STT_MODEL: optionalString,
  PALKIT_INVITE_DOMAIN: z
    .string()
    .trim()
    .regex(/^[a-z0-9.-]+$/i, 'must be a domain name')
    .default('invite.palkit.local'),
  PALKIT_FACE_TRAINING_STEP_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  PALKIT_RENDER_PATH: optionalString,
  PALKIT_FFMPEG: optionalString,
  PALKIT_ROOM_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  PALKIT_PAL_WORDS_PER_MINUTE: z.coerce.number().min(10).max(60_000).default(160),
  PALKIT_EMBEDDINGS_BASE_URL: optionalString,
  PALKIT_EMBEDDINGS_API_KEY: optionalString,
  PALKIT_EMBEDDINGS_MODEL: optionalString,
  PALKIT_CRAWL_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  PALKIT_GENERATING_PER_OWNER: z.coerce.number().int().min(1).max(100_000).default(10),
  PALKIT_VIDEO_RENDERS: z.coerce.number().int().min(1).max(64).default(1),
  PALKIT_VIDEO_QUEUE_PER_OWNER: z.coerce.number().int().min(1).max(100_000).default(100),
  PALKIT_VIDEO_RENDER_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(600),
  PALKIT_UPLOAD_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  PALKIT_UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(500),
  PALKIT_UPLOAD_MB_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(100),
  PALKIT_METRICS_TOKEN: optionalString,
  PALKIT_RECORDING_DIR: optionalString,
  PALKIT_RECORDING_S3_BUCKET: optionalString,
  PALKIT_RECORDING_S3_ENDPOINT: optionalString,
  PALKIT_RECORDING_S3_REGION: optionalString,
  PALKIT_RECORDING_S3_ACCESS_KEY_ID: optionalString,
  PALKIT_RECORDING_S3_SECRET_ACCESS_KEY: optionalString,
  PALKIT_RECORDING_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  PALKIT_RECORDING_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  PALKIT_RECORDING_LINK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  PALKIT_RECORDING_COPY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  PALKIT_RECORDING_IDLE_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  PALKIT_LOG: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  PALKIT_START_RATE_PER_MINUTE: z.coerce.number().min(0).max(100_000).default(10),
  PALKIT_START_BURST: z.coerce.number().int().min(1).max(100_000).default(5),
  PALKIT_MAX_UNJOINED_CALLS: z.coerce.number().int().min(0).max(1_000_000).default(20),
  PALKIT_START_RATE_PER_ADDRESS_PER_MINUTE: z.coerce.number().min(0).max(100_000).default(60),
  PALKIT_MAX_CONNECTIONS: z.coerce.number().int().min(16).max(1_000_000).optional(),
  PALKIT_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(256),
  PALKIT_MAX_PENDING_UPGRADES_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(16),
  PALKIT_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
});

export interface Config {
  port: number;
  /** Embedded database directory, or 'memory'. Ignored when databaseUrl is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * With dataDir 'memory' only: a file holding an image of a PGlite data directory (PGlite's dumpDataDir, a
   * tar) that the in-memory database starts from instead of an empty one. The migrations still run and find
   * what the image already has. Tests start their service processes from one migrated image: initdb and
   * the migrations cost about 2 s of CPU per start.
   */
  pgliteImage: string | undefined;
  /** Seed API keys: key → owner id. */
  seedKeys: Map<string, number>;
  publicUrl: string;
  /** CIDRs that the guarded fetch may reach although private. */
  outboundAllow: string[];
  turnstile: { siteKey: string | undefined; secret: string | undefined; verifyUrl: string };
  daily: { apiKey: string | undefined; apiUrl: string; webhookSecret: string | undefined };
  /** Where Daily rooms are handed to your own PAL bot (signed with the whsec_ secret), for PALs that pick it or nothing. */
  palRunner: { url: string; secret: string } | undefined;
  /** How long a PAL bot that accepted the handoff has to join its Daily room. */
  palRunnerJoinSeconds: number;
  /**
   * palkit's own runner for Daily rooms (live/runner/pages.ts), for PALs that pick it (layers.daily.runner)
   * or, when no PALKIT_PAL_RUNNER_URL is set, pick nothing:
   * at most `pages` Daily PALs at once on this instance (0: none), each a headless `chromium` page in a
   * child process started from `entry` (the built-in one unless a test names a stand-in).
   */
  dailyRunner: { pages: number; chromium: string; entry: string | undefined };
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  /** Server secret for signing meeting tokens and encrypting stored secrets. */
  secret: string | undefined;
  /** Without `secret`: the 0600 file the generated one is kept in, apart from the database; null for an in-memory database. */
  secretFile: string | null;
  jobLeaseSeconds: number;
  llm: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  vision: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  /** OpenAI-compatible `/v1/audio/speech` for the PAL's voice; espeak-ng on this machine when baseUrl is unset. */
  tts: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  /**
   * The local voice (eSpeak NG): 'wasm', compiled with Emscripten (the package ships it as wasm2js JavaScript) and run on worker threads (nothing outside
   * npm), or 'native', the C bridge built with `cc` against libespeak-ng-dev (Linux, opt-in).
   */
  localVoice: LocalVoice;
  /** OpenAI-compatible `/v1/audio/transcriptions` for the visitor's speech; the browser's recognition when baseUrl is unset. */
  stt: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  /**
   * The public front door's defaults (docs/production.md): starts per minute per client address and
   * per deployment (0: no rate) with its burst, and conversations a deployment may have started but never
   * joined (0: no cap). A deployment's `limits` override the first and the last.
   */
  frontDoor: { startsPerMinute: number; startBurst: number; maxUnjoinedCalls: number; startsPerAddressPerMinute: number };
  /**
   * Connections to the HTTP server: a total cap (undefined: derived from the descriptor limit), caps per
   * client address on open connections and on WebSocket upgrades that have not joined yet (0: none), and
   * how long a request's headers may take to arrive.
   */
  connections: { max: number | undefined; perAddress: number; pendingUpgradesPerAddress: number; headersTimeoutMs: number };
  /** Local rooms: how often rooms look at the database (ends requested elsewhere, deadlines), and the local PAL's speaking rate. */
  room: { pollMs: number; wordsPerMinute: number };
  /** OpenAI-compatible `/v1/embeddings` for documents; the built-in local embedder when baseUrl is unset. */
  embeddings: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  /** Politeness delay between two requests of a crawl to the same host. */
  crawlDelayMs: number;
  /** Speech items one owner may have generating at once; past it a create answers 429 (videos queue: `videos`). */
  generatingPerOwner: number;
  /**
   * Videos: how many render at once in this instance (each in a process of its own, its resident memory
   * capped at renderMemoryMb); the rest wait, queued, up to queuePerOwner per owner (429 past it).
   */
  videos: { renders: number; queuePerOwner: number; renderMemoryMb: number };
  /**
   * Uploads (POST /v2/uploads): how long one is kept before the sweep removes it, how many bytes of an
   * owner's uploads may be kept at once, and how many an owner may send in a minute (429 past either).
   */
  uploads: { lifetimeSeconds: number; quotaBytes: number; bytesPerMinute: number };
  log: 'silent' | 'error' | 'info' | 'debug';
  /** Recordings: the default storage (a folder, or the operator's S3-compatible bucket), the copy retries, download links. */
  recording: {
    /** Checked to be private at start (live/recording/folder.ts), and replaced by a fresh private folder when an in-memory service's is not. */
    dir: string;
    s3:
      | {
          bucket: string;
          endpoint: string | undefined;
          region: string;
          accessKeyId: string | undefined;
          secretAccessKey: string | undefined;
        }
      | undefined;
    retryMs: number;
    maxAttempts: number;
    linkSeconds: number;
    /** One delivery's whole time, and how long its connection may stay silent. */
    copyTimeoutMs: number;
    idleMs: number;
  };
  /** When set, `/metrics` answers only with `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Domain of PAL conferencing addresses: `{layers.conferencing.username}@{inviteDomain}`. */
  inviteDomain: string;
  /** Pause between face training steps (tests slow training down to interrupt it; 0 in production). */
  faceTrainingStepMs: number;
  /** Directories (PATH syntax) where the local renderer looks for espeak-ng; defaults to PATH. */
  renderPath: string | undefined;
  /** Another ffmpeg than the bundled one: a path, or a name looked up on PATH (platform/media/ffmpeg.ts). */
  ffmpeg: string | undefined;
}

export class ConfigError extends Error {}

export function parseSeedKeys(value: string | undefined): Map<string, number> {
  const keys = new Map<string, number>();
  if (!value) return keys;
  for (const pair of value.split(',')) {
    const trimmed = pair.trim();
    if (!trimmed) continue;
    const at = trimmed.lastIndexOf(':');
    const key = trimmed.slice(0, at);
    const owner = Number(trimmed.slice(at + 1));
    if (at <= 0 || !Number.isSafeInteger(owner) || owner <= 0) {
      throw new ConfigError('PALKIT_API_KEYS must look like key:owner_id,key2:owner_id2 (owner ids are positive integers)');
    }
    keys.set(key, owner);
  }
  return keys;
}

export function loadConfig(env: Record<string, string | undefined> = process.env, port = 8787): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  if (e.PALKIT_PAL_RUNNER_URL && !e.PALKIT_PAL_RUNNER_SECRET) {
    throw new ConfigError(
      'invalid configuration: PALKIT_PAL_RUNNER_URL is set but PALKIT_PAL_RUNNER_SECRET is not: the runner must be able to verify the handoff (a whsec_… secret)',
    );
  }
  if (e.PALKIT_PGLITE_IMAGE && (e.PALKIT_DATA !== 'memory' || e.DATABASE_URL)) {
    throw new ConfigError(
      'invalid configuration: PALKIT_PGLITE_IMAGE applies only to an in-memory database (PALKIT_DATA=memory, no DATABASE_URL)',
    );
  }
  return {
    port,
    dataDir: e.PALKIT_DATA,
    databaseUrl: e.DATABASE_URL,
    pgliteImage: e.PALKIT_PGLITE_IMAGE,
    seedKeys: parseSeedKeys(e.PALKIT_API_KEYS),
    publicUrl: (e.PALKIT_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    outboundAllow: (e.PALKIT_OUTBOUND_ALLOW ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    turnstile: { siteKey: e.PALKIT_TURNSTILE_SITE_KEY, secret: e.PALKIT_TURNSTILE_SECRET, verifyUrl: e.PALKIT_TURNSTILE_VERIFY_URL },
    daily: {
      apiKey: e.PALKIT_DAILY_API_KEY,
      apiUrl: e.PALKIT_DAILY_API_URL.replace(/\/+$/, ''),
      webhookSecret: e.PALKIT_DAILY_WEBHOOK_SECRET,
    },
    palRunner:
      e.PALKIT_PAL_RUNNER_URL && e.PALKIT_PAL_RUNNER_SECRET
        ? { url: e.PALKIT_PAL_RUNNER_URL, secret: e.PALKIT_PAL_RUNNER_SECRET }
        : undefined,
    palRunnerJoinSeconds: e.PALKIT_PAL_RUNNER_JOIN_SECONDS,
    dailyRunner: { pages: e.PALKIT_DAILY_RUNNER_PAGES, chromium: e.PALKIT_CHROMIUM, entry: e.PALKIT_DAILY_RUNNER_ENTRY },
    secret: e.PALKIT_SECRET,
    secretFile: e.PALKIT_SECRET_FILE ?? defaultSecretFile(e.PALKIT_DATA, e.DATABASE_URL),
    trustProxy: e.PALKIT_TRUST_PROXY === '1' || e.PALKIT_TRUST_PROXY === 'true',
    jobLeaseSeconds: e.PALKIT_JOB_LEASE_SECONDS,
    llm: { baseUrl: e.PALKIT_LLM_BASE_URL, apiKey: e.PALKIT_LLM_API_KEY, model: e.PALKIT_LLM_MODEL },
    // The vision model for perception: its own endpoint, or the language model's when only the model is named.
    vision: {
      baseUrl: e.PALKIT_VISION_BASE_URL ?? e.PALKIT_LLM_BASE_URL,
      apiKey: e.PALKIT_VISION_BASE_URL ? e.PALKIT_VISION_API_KEY : (e.PALKIT_VISION_API_KEY ?? e.PALKIT_LLM_API_KEY),
      model: e.PALKIT_VISION_MODEL,
    },
    tts: { baseUrl: e.PALKIT_TTS_BASE_URL, apiKey: e.PALKIT_TTS_API_KEY, model: e.PALKIT_TTS_MODEL },
    localVoice: chooseLocalVoice(
      e.PALKIT_LOCAL_VOICE,
      env.PATH ?? process.env.PATH ?? '',
      e.PALKIT_RENDER_PATH ?? env.PATH ?? process.env.PATH ?? '',
    ),
    stt: { baseUrl: e.PALKIT_STT_BASE_URL, apiKey: e.PALKIT_STT_API_KEY, model: e.PALKIT_STT_MODEL },
    frontDoor: {
      startsPerMinute: e.PALKIT_START_RATE_PER_MINUTE,
      startBurst: e.PALKIT_START_BURST,
      maxUnjoinedCalls: e.PALKIT_MAX_UNJOINED_CALLS,
      startsPerAddressPerMinute: e.PALKIT_START_RATE_PER_ADDRESS_PER_MINUTE,
    },
    connections: {
      max: e.PALKIT_MAX_CONNECTIONS,
      perAddress: e.PALKIT_MAX_CONNECTIONS_PER_ADDRESS,
      pendingUpgradesPerAddress: e.PALKIT_MAX_PENDING_UPGRADES_PER_ADDRESS,
      headersTimeoutMs: e.PALKIT_HEADERS_TIMEOUT_MS,
    },
    room: { pollMs: e.PALKIT_ROOM_POLL_MS, wordsPerMinute: e.PALKIT_PAL_WORDS_PER_MINUTE },
    embeddings: { baseUrl: e.PALKIT_EMBEDDINGS_BASE_URL, apiKey: e.PALKIT_EMBEDDINGS_API_KEY, model: e.PALKIT_EMBEDDINGS_MODEL },
    crawlDelayMs: e.PALKIT_CRAWL_DELAY_MS,
    generatingPerOwner: e.PALKIT_GENERATING_PER_OWNER,
    videos: {
      renders: e.PALKIT_VIDEO_RENDERS,
      queuePerOwner: e.PALKIT_VIDEO_QUEUE_PER_OWNER,
      renderMemoryMb: e.PALKIT_VIDEO_RENDER_MEMORY_MB,
    },
    uploads: {
      lifetimeSeconds: e.PALKIT_UPLOAD_LIFETIME_SECONDS,
      quotaBytes: e.PALKIT_UPLOAD_QUOTA_MB * 1024 * 1024,
      bytesPerMinute: e.PALKIT_UPLOAD_MB_PER_MINUTE * 1024 * 1024,
    },
    log: e.PALKIT_LOG,
    recording: {
      dir: e.PALKIT_RECORDING_DIR ?? (e.PALKIT_DATA === 'memory' ? memoryRecordingDir() : join(e.PALKIT_DATA, 'recordings')),
      s3: e.PALKIT_RECORDING_S3_BUCKET
        ? {
            bucket: e.PALKIT_RECORDING_S3_BUCKET,
            endpoint: e.PALKIT_RECORDING_S3_ENDPOINT,
            region: e.PALKIT_RECORDING_S3_REGION ?? 'us-east-1',
            accessKeyId: e.PALKIT_RECORDING_S3_ACCESS_KEY_ID,
            secretAccessKey: e.PALKIT_RECORDING_S3_SECRET_ACCESS_KEY,
          }
        : undefined,
      retryMs: e.PALKIT_RECORDING_RETRY_MS,
      maxAttempts: e.PALKIT_RECORDING_MAX_ATTEMPTS,
      linkSeconds: e.PALKIT_RECORDING_LINK_SECONDS,
      copyTimeoutMs: e.PALKIT_RECORDING_COPY_TIMEOUT_MS,
      idleMs: e.PALKIT_RECORDING_IDLE_MS,
    },
    metricsToken: e.PALKIT_METRICS_TOKEN,
    inviteDomain: e.PALKIT_INVITE_DOMAIN.toLowerCase(),
    faceTrainingStepMs: e.PALKIT_FACE_TRAINING_STEP_MS,
    renderPath: e.PALKIT_RENDER_PATH,
    ffmpeg: e.PALKIT_FFMPEG,
  };
}

/** Beside the embedded database's directory (./.palkit/service.key by default); for PostgreSQL, in ./.palkit. */
function defaultSecretFile(dataDir: string, databaseUrl: string | undefined): string | null {
  if (databaseUrl) return join('.palkit', 'service.key');
  return dataDir === 'memory' ? null : join(dirname(dataDir), 'service.key');
}

/** An in-memory service's recordings: in its private folder of the temp folder (checked at start). */
export function memoryRecordingDir(): string {
  return join(tmpdir(), `palkit-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`, 'recordings');
}
