// Chaos tests drive the real service as a process of its own, so that "the process never exits" and
// "memory growth" are measured on it, not on the test runner: rooms opened through the public API, the
// process's resident memory read from /proc, and how long another room takes to answer.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { reportFigure } from './figures.js';
import { RoomClient } from './live-fixtures.js';
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './process.js';

export interface ChaosService {
  process: ServiceProcess;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** A new echo PAL's conversation, not joined yet. */
  conversation(properties?: Record<string, unknown>): Promise<Conversation>;
  /** A new echo PAL's conversation, joined by a visitor who heard the greeting. */
  call(properties?: Record<string, unknown>): Promise<{ client: RoomClient; conversationId: string }>;
  /** Resident memory of the service process, in MB. */
  rssMb(): number;
  /** Fails when the process has exited, naming its exit and output. */
  assertAlive(): void;
  stop(): Promise<void>;
}

export interface Conversation {
  conversationId: string;
  conversationUrl: string;
  meetingToken: string;
}

const KEY = 'chaos-key';

export async function startChaosService(
  env: Record<string, string> = {},
  options: Pick<ServiceProcessOptions, 'nodeArgs' | 'port'> = {},
): Promise<ChaosService> {
  const process = await startServiceProcess(
    {
      PALKIT_DATA: 'memory',
      PALKIT_API_KEYS: `${KEY}:1`,
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8,::1/128',
      PALKIT_PAL_WORDS_PER_MINUTE: '6000',
      ...env,
    },
    options,
  );
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(process.url + path, {
      method,
      headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as any) : null };
  };
  const pal = await api('POST', '/v2/pals', {
    pal_name: 'Echo',
    system_prompt: 'Echo',
    pipeline_mode: 'echo',
    default_face_id: 'rpalkitada',
  });
  if (pal.status !== 200) throw new Error(`creating the PAL: ${pal.status} ${JSON.stringify(pal.body)}`);
  const conversation = async (properties = {}): Promise<Conversation> => {
    const conv = await api('POST', '/v2/conversations', { pal_id: pal.body.pal_id, custom_greeting: 'Hi.', properties });
    if (conv.status !== 200) throw new Error(`creating the conversation: ${conv.status} ${JSON.stringify(conv.body)}`);
    return {
      conversationId: conv.body.conversation_id,
      conversationUrl: conv.body.conversation_url,
      meetingToken: conv.body.meeting_token,
    };
  };
  return {
    process,
    api,
    conversation,
    async call(properties = {}) {
      const conv = await conversation(properties);
      const client = await RoomClient.join(conv.conversationUrl, conv.meetingToken, 'Visitor');
      await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000);
      return { client, conversationId: conv.conversationId };
    },
    rssMb() {
      const status = readFileSync(`/proc/${process.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    },
    assertAlive() {
      if (process.child.exitCode !== null || process.child.signalCode !== null) {
        throw new Error(`the service exited (${process.child.exitCode ?? process.child.signalCode}):\n${process.output().slice(-4000)}`);
      }
    },
    stop: () => process.stop(),
  };
}

/** Milliseconds from a typed message to the echo PAL starting to answer it in this room (the room is otherwise quiet). */
export async function replyMs(client: RoomClient, timeoutMs = 20_000): Promise<number> {
  const answered = client.events('conversation.replica.started_speaking').length;
  const started = performance.now();
  client.say('conversation.respond', { text: 'Are you there?' });
  await client.waitForEvent('conversation.replica.started_speaking', () => true, timeoutMs, answered + 1);
  return performance.now() - started;
}

/** The p-th percentile (0–100) of these figures. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/**
 * A bystander's reply times, quiet and during the chaos, to the real-time report (helpers/figures.ts): the p95
 * of each, the one during with the bar the test asserts on it.
 */
export function reportReplies(name: string, quiet: number[], during: number[], barMs: number): void {
  reportFigure({ name: `${name}: bystander's replies quiet, p95`, value: percentile(quiet, 95), unit: 'ms', better: 'lower' });
  const p95 = percentile(during, 95);
  const bar = `< ${Math.round(barMs)}`;
  reportFigure({ name: `${name}: bystander's replies during, p95`, value: p95, unit: 'ms', better: 'lower', bar, met: p95 < barMs });
}

export type FloodKind = 'audio' | 'hifi' | 'rates' | 'chat' | 'echo' | 'echo-interrupt' | 'zero-cost';
/** Frames sent, the close code of the last connection (and of each), and how many times the flooder joined. */
export interface FloodResult {
  sent: number;
  closeCode: number | null;
  closeCodes: Array<number | null>;
  sessions: number;
}

/** A hostile visitor in its own process floods the conversation with `count` frames of this kind, joining again when closed. */
export async function flood(conv: Conversation, kind: FloodKind, count: number): Promise<FloodResult> {
  const script = fileURLToPath(new URL('./flooder.mjs', import.meta.url));
  return await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, conv.conversationUrl, conv.meetingToken, kind, String(count)],
      { timeout: 90_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the flooder failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as FloodResult);
      },
    );
  });
}
