// Prometheus metrics of one service instance (prom-client), on a registry of its own so that several
// services in one process (tests) never share counters. Gauges about the database are read at scrape time.
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from './db/database.js';
import { buildInfo } from './version.js';

export interface ServiceMetrics {
  registry: Registry;
  conversationStarts: Counter<'via'>;
  startRefusals: Counter<'via' | 'reason'>;
  webhookDeliveryFailures: Counter<'final'>;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  roomInputDropped: Counter<'kind'>;
  roomSocketsClosedForFlooding: Counter;
  roomSocketsDroppedUnread: Counter;
  unhandledRejections: Counter;
  /** Connections the front door refused or cut, by reason (app/http/connection-guard.ts). */
  connectionsRefused: Counter<'reason'>;
  relayShed: Counter<'kind'>;
  /** What the instance channel has queued, read at scrape time (the room hub sets `bytes` on PostgreSQL). */
  relayQueue: { bytes: () => number; sheddingParticipants: () => number };
  /** What this instance holds, read at scrape time (set by the room hub): what an autoscaler reads. */
  instanceLoad: { rooms: () => number; participants: () => number; relayedParticipants: () => number };
  /** The local voice's queue, read at scrape time (set when the rooms' voice is made). */
  voiceQueue: { backlog: () => { sentences: number; oldestWaitMs: number } };
  /** Measured in the visitors' pages (issue 26): end of their turn to the first audible PAL sample / mouth movement. */
  turnHeard: Histogram<'input'>;
  turnMouth: Histogram<'input'>;
  lipSync: Histogram;
}

/** Heard latency lives around a second; the buckets resolve the 0.5–1.5 s where goals are set. */
const TURN_BUCKETS = [0.1, 0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.2, 1.5, 2, 3, 5, 10];
/** Lip-sync offsets: noticed beyond ~45 ms. */
const LIP_SYNC_BUCKETS = [0.01, 0.02, 0.03, 0.04, 0.05, 0.08, 0.12, 0.2, 0.5];

export interface MetricsOptions {
  db: Db;
  /** This process among the instances (ServiceDeps.instanceId), a label of palkit_build_info. */
  instanceId?: string;
  /** Process metrics (CPU, memory, event loop, GC): once per process, so only the command line asks. */
  processMetrics?: boolean;
}

export function createMetrics({ db, instanceId = 'unknown', processMetrics = false }: MetricsOptions): ServiceMetrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry, prefix: 'palkit_' });

  new Gauge({
    name: 'palkit_build_info',
    help: 'Always 1; its labels say which build this instance runs and which instance it is.',
    labelNames: ['version', 'instance'],
    registers: [registry],
  }).set({ version: buildInfo().version, instance: instanceId }, 1);
  const instanceLoad = { rooms: () => 0, participants: () => 0, relayedParticipants: () => 0 };
  const voiceQueue = { backlog: () => ({ sentences: 0, oldestWaitMs: 0 }) };
  for (const [name, help, read] of [
    ['palkit_instance_rooms', 'Rooms this instance holds (their agents run here).', () => instanceLoad.rooms()],
    [
      'palkit_instance_participants',
      'Visitors connected to rooms this instance holds, directly or relayed.',
      () => instanceLoad.participants(),
    ],
    [
      'palkit_instance_relayed_participants',
      'Visitors connected here whose room another instance holds (relayed to it).',
      () => instanceLoad.relayedParticipants(),
    ],
    [
      'palkit_voice_queue_sentences',
      'Sentences waiting for the local voice (rooms and speech items).',
      () => voiceQueue.backlog().sentences,
    ],
    [
      'palkit_voice_queue_wait_seconds',
      'How long the oldest sentence waiting for the local voice has waited.',
      () => voiceQueue.backlog().oldestWaitMs / 1000,
    ],
  ] as const) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  }

  new Gauge({
    name: 'palkit_live_conversations',
    help: 'Conversations with status active (in the whole database).',
    registers: [registry],
    async collect() {
      const row = await db
        .selectFrom('conversations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'active')
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });

  // Depth and lag come from one query; whichever gauge is collected first refreshes both.
  let queue: Promise<{ depth: number; lag: number }> | undefined;
  const readQueue = () =>
    (queue ??= sql<{ depth: number | string; lag: number | string | null }>`
      select count(*) as depth, extract(epoch from now() - min(run_at)) as lag
      from jobs where status = 'queued' and run_at <= now()`
      .execute(db)
      .then(({ rows }) => ({ depth: Number(rows[0]?.depth ?? 0), lag: Math.max(0, Number(rows[0]?.lag ?? 0)) }))
      .finally(() => setImmediate(() => (queue = undefined))));
  new Gauge({
    name: 'palkit_job_queue_depth',
    help: 'Background jobs due and waiting for a worker.',
    registers: [registry],
    async collect() {
      this.set((await readQueue()).depth);
    },
  });
  new Gauge({
    name: 'palkit_job_lag_seconds',
    help: 'How long the oldest due job has been waiting (0 when none waits).',
    registers: [registry],
    async collect() {
      this.set((await readQueue()).lag);
    },
  });

  const relayQueue = { bytes: () => 0, sheddingParticipants: () => 0 };
  new Gauge({
    name: 'palkit_relay_queue_bytes',
    help: "Bytes waiting in this instance's channel to the other instances (bounded; audio is shed first).",
    registers: [registry],
    collect() {
      this.set(relayQueue.bytes());
    },
  });
  new Gauge({
    name: 'palkit_relay_shedding_participants',
    help: 'Relayed participants whose audio the instance channel shed in the last 10 s: the channel is past its capacity (also in /readyz).',
    registers: [registry],
    collect() {
      this.set(relayQueue.sheddingParticipants());
    },
  });

  return {
    registry,
    relayQueue,
    instanceLoad,
    voiceQueue,
    relayShed: new Counter({
      name: 'palkit_relay_shed_total',
      help: 'NOTIFY payloads the instance channel dropped because its queue was full (kind: audio, shed first; message, only when the queue is full without audio).',
      labelNames: ['kind'],
      registers: [registry],
    }),
    conversationStarts: new Counter({
      name: 'palkit_conversation_starts_total',
      help: 'Conversations started (via: deployment start or keyed API create).',
      labelNames: ['via'],
      registers: [registry],
    }),
    startRefusals: new Counter({
      name: 'palkit_start_refusals_total',
      help: 'Conversation starts refused, by reason (the error code of the answer).',
      labelNames: ['via', 'reason'],
      registers: [registry],
    }),
    webhookDeliveryFailures: new Counter({
      name: 'palkit_webhook_delivery_failures_total',
      help: 'Failed webhook delivery attempts (final: no retry follows).',
      labelNames: ['final'],
      registers: [registry],
    }),
    roomInputDropped: new Counter({
      name: 'palkit_room_input_dropped_total',
      help: 'What participants sent into local rooms past their budget and was dropped (kind: audio, frame, text; malformed: binary frames that are not microphone audio; backlog: frames past the bound of what a connection may send while its join is checked).',
      labelNames: ['kind'],
      registers: [registry],
    }),
    roomSocketsClosedForFlooding: new Counter({
      name: 'palkit_room_sockets_closed_flooding_total',
      help: 'Room connections closed because they kept sending past their budget.',
      registers: [registry],
    }),
    roomSocketsDroppedUnread: new Counter({
      name: 'palkit_room_sockets_dropped_unread_total',
      help: 'Room connections terminated because they stopped reading: their unsent output passed its bound (1 MiB).',
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: 'palkit_connections_refused_total',
      help: "Connections refused or cut by the front door (reason: per_address, an address's connection cap; total, the connection cap; pending_upgrades, an address's cap on room upgrades waiting to join (429); pending_evicted, the oldest waiting upgrade closed to make room; request_timeout, headers or body not in time; slow_headers_evicted, the oldest connection still without its headers closed to keep the reserve).",
      labelNames: ['reason'],
      registers: [registry],
    }),
    unhandledRejections: new Counter({
      name: 'palkit_unhandled_rejections_total',
      help: 'Promises rejected with no handler (logged; the process goes on).',
      registers: [registry],
    }),
    turnHeard: new Histogram({
      name: 'palkit_turn_heard_seconds',
      help: "From the end of the visitor's turn to the PAL's first audible sample at their audio output, as their page measured it (input: text, speech).",
      labelNames: ['input'],
      buckets: TURN_BUCKETS,
      registers: [registry],
    }),
    turnMouth: new Histogram({
      name: 'palkit_turn_mouth_seconds',
      help: "From the end of the visitor's turn to the PAL's first mouth movement drawn in their page (input: text, speech).",
      labelNames: ['input'],
      buckets: TURN_BUCKETS,
      registers: [registry],
    }),
    lipSync: new Histogram({
      name: 'palkit_lip_sync_offset_seconds',
      help: "Per PAL reply, the p95 of |mouth shape drawn − its audio at the output| in the visitor's page.",
      buckets: LIP_SYNC_BUCKETS,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'palkit_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
