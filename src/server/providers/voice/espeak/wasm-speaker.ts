// One eSpeak NG WebAssembly instance on a worker thread of its own (wasm-worker.ts), seen from the
// service's thread as a Speaker. However the thread ends — an exception or a WebAssembly trap in it, an
// exit, a terminate() from outside, a request that stalls (a hang is ended with terminate()) — the pool
// hears of one death with the request it was serving, and the process goes on.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../../platform/package-root.js';
import { systemClock, type Clock, type ClockTimer } from '../../../platform/time.js';
import type { Speaker, SpeakerHooks, SpeakerRequest } from './instance.js';
import type { WorkerData, WorkerReply } from './wasm-protocol.js';

/** Loading the module and its voices, and warming it up: seconds on a loaded machine. */
const START_MS = 60_000;
/** A request that produces nothing for this long is stuck: the thread is ended and the request retried. */
const STALL_MS = 5_000;
/**
 * A thread still warming up says a warm-up text before the request (its first, while V8 has not yet
 * compiled eSpeak, takes seconds on a loaded machine): its first output may take this long. Once output
 * flows, STALL_MS holds again.
 */
const COLD_FIRST_OUTPUT_MS = 20_000;
/** Its heap: eSpeak with every voice's data needs ~100 MB; a runaway thread ends there, not the process. */
const MAX_HEAP_MB = 256;

const fromSource = import.meta.url.endsWith('.ts');
/** The worker's entry: the TypeScript source in a checkout, @palkit/server's dist/espeak-worker.js when built. */
export const WORKER_ENTRY = fromSource
  ? join(packageRoot, 'providers/voice/espeak/wasm-worker.ts')
  : join(packageRoot, 'dist/espeak-worker.js');

export interface WasmSpeakerOptions {
  /** Another entry for the thread (tests plant faults with one that wraps wasm-worker.ts). */
  entry?: string;
  stallMs?: number;
  /** The stall timeout's timers: real time (a thread's stall is), unless a test hands in a clock it moves. */
  timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

export class WasmSpeaker implements Speaker {
  private readonly worker: Worker;
  private readonly cancelled = new Int32Array(new SharedArrayBuffer(4));
  private current: SpeakerRequest | null = null;
  private ready = false;
  private dead = false;
  private timer: ClockTimer | null = null;
  private readonly stallMs: number;
  private readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  sampleRate: number | null = null;
  warm = false;

  constructor(
    private readonly hooks: SpeakerHooks,
    options: WasmSpeakerOptions = {},
  ) {
    this.stallMs = options.stallMs ?? STALL_MS;
    this.timers = options.timers ?? systemClock;
    const entry = options.entry ?? WORKER_ENTRY;
    const workerData: WorkerData = { cancel: this.cancelled.buffer as SharedArrayBuffer };
    const settings = { workerData, resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB } };
    // A worker does not inherit the main thread's module hooks: from the source it registers tsx itself.
    this.worker = entry.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`,
          { ...settings, eval: true },
        )
      : new Worker(pathToFileURL(entry), settings);
    this.worker.on('message', (message: WorkerReply) => this.receive(message));
    this.worker.on('error', (error) => this.die(`failed: ${error.message}`));
    this.worker.on('messageerror', () => this.die('sent a message that could not be read'));
    this.worker.on('exit', (code) => this.die(`exited with ${code}`));
    this.arm(START_MS, 'did not start');
    this.hold(false);
  }

  /** Whether this build carries the worker (a checkout always does). */
  static available(): boolean {
    return fromSource || existsSync(WORKER_ENTRY);
  }

  get id(): number | undefined {
    return this.dead ? undefined : this.worker.threadId;
  }

  /** The thread itself, for tests that end it from outside. */
  get thread(): Worker {
    return this.worker;
  }

  run(request: SpeakerRequest): void {
    if (this.dead || this.current) throw new Error('the speaker is not free');
    this.current = request;
    this.hold(true);
    if (this.ready) this.send(request);
  }

  cancel(id: number): void {
    if (this.dead || this.current?.id !== id) return;
    // Read by the worker at its next chunk, or before it starts the request if it has not yet.
    Atomics.store(this.cancelled, 0, id);
  }

  stop(): void {
    this.dead = true;
    this.disarm();
    void this.worker.terminate();
  }

  private send(request: SpeakerRequest): void {
    this.arm(this.warm ? this.stallMs : Math.max(this.stallMs, COLD_FIRST_OUTPUT_MS), 'stalled');
    this.worker.postMessage({ id: request.id, voice: request.voice, rate: request.rate, text: request.text });
  }

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    this.disarm();
    void this.worker.terminate();
    const request = this.current;
    this.current = null;
    this.hooks.onDeath(this, request, reason);
  }

  private receive(message: WorkerReply): void {
    if (this.dead) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.sampleRate = message.sampleRate;
      this.disarm();
      if (this.current) this.send(this.current);
      return;
    }
    if (message.type === 'warm') {
      this.warm = true;
      return;
    }
    const request = this.current;
    if (!request || message.id !== request.id) return;
    this.arm(this.stallMs, 'stalled');
    if (message.type === 'events') {
      request.onEvent({ type: 'audio', samples: message.samples });
      for (const event of message.events) request.onEvent(event);
      return;
    }
    this.current = null;
    this.disarm();
    this.hold(false);
    request.onEvent(message.type === 'end' ? { type: 'end' } : { type: 'error', message: message.message });
    if (!this.dead) this.hooks.onIdle(this, request);
  }

  /** The thread keeps the service alive only while it has work (an idle service may exit). */
  private hold(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  private arm(ms: number, reason: string): void {
    this.disarm();
    this.timer = this.timers.setTimeout(() => this.die(reason), ms);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
