// One running eSpeak bridge (palkit-espeak.c): a child process that synthesises one line at a time and
// answers in binary frames. Exactly one request is in flight at a time, so a cancelled sentence that was
// never sent costs nothing. However the child ends — an exit code, a signal, a broken pipe on either
// side, a stall, output that cannot be framed — the bridge reports one death with the request it was
// serving, and the pool decides what to do; no stream error is ever left unhandled.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Logger } from '../../../platform/log.js';

export const FRAME = { audio: 1, word: 2, phoneme: 3, end: 4, error: 5, ready: 6 } as const;
const HEADER = 9;
/** No frame can be this long (audio comes in ~100 ms chunks): longer means the output is corrupt. */
const MAX_FRAME = 1 << 20;
/** A request that produces no frame for this long is stuck: the bridge is killed and the request retried. */
const STALL_MS = 5_000;

export interface BridgeRequest {
  id: number;
  voice: string;
  rate: number;
  text: string;
  /** A frame for this request; `end` and `error` frames close it. */
  onFrame(type: number, payload: Buffer): void;
}

export class Bridge {
  private readonly child: ChildProcessWithoutNullStreams;
  private current: BridgeRequest | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private stall: NodeJS.Timeout | null = null;
  private dead = false;
  /** Whether the request in flight has sent a frame yet, and whether it was cancelled before it had. */
  private started = false;
  private cancelWanted = false;
  sampleRate: number | null = null;

  constructor(
    binary: string,
    private readonly log: Logger,
    /** Called once when the child is gone, unless stop() ended it: with the request it was serving. */
    private readonly onDeath: (bridge: Bridge, request: BridgeRequest | null, reason: string) => void,
    /** Called when the request in flight got its last frame. */
    private readonly onIdle: (bridge: Bridge, request: BridgeRequest) => void,
  ) {
    this.child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => this.log.error('espeak bridge', { message: chunk.toString().trim().slice(0, 500) }));
    // Writing to a bridge that just died fails with EPIPE on stdin: that is a death like any other.
    this.child.stdin.on('error', (error) => this.die(`stdin: ${error.message}`));
    this.child.stdout.on('error', (error) => this.die(`stdout: ${error.message}`));
    this.child.stderr.on('error', () => undefined);
    this.child.on('error', (error) => this.die(`could not run: ${error.message}`));
    this.child.on('exit', (code, signal) => this.die(signal ? `killed by ${signal}` : `exited with ${code}`));
    this.hold(false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get busy(): boolean {
    return this.current !== null;
  }

  get alive(): boolean {
    return !this.dead;
  }

  run(request: BridgeRequest): void {
    if (this.dead || this.current) throw new Error('the bridge is not free');
    this.current = request;
    this.started = false;
    this.cancelWanted = false;
    this.hold(true);
    this.armStall();
    this.child.stdin.write(`${request.id}\t${request.voice}\t${request.rate}\t${request.text}\n`);
  }

  /** Stops synthesising this request if it is the one in flight; its end frame follows (palkit-espeak.c). */
  cancel(id: number): void {
    if (this.dead || this.current?.id !== id) return;
    // Until its first frame the bridge may not have read the line yet (reading it forgets an earlier
    // cancel) or even installed its handler (the signal would kill it): the cancel waits for that frame.
    if (this.started) this.child.kill('SIGUSR1');
    else this.cancelWanted = true;
  }

  /** Ends the child on purpose (service shutdown): no death is reported. */
  stop(): void {
    this.dead = true;
    this.disarmStall();
    this.child.kill('SIGKILL');
  }

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    this.disarmStall();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    const request = this.current;
    this.current = null;
    this.onDeath(this, request, reason);
  }

  /** The bridge keeps the service alive only while it has work (an idle service may exit). */
  private hold(busy: boolean): void {
    for (const handle of [this.child, this.child.stdout, this.child.stderr, this.child.stdin] as unknown as Array<{
      ref?: () => void;
      unref?: () => void;
    }>) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
  }

  private armStall(): void {
    this.disarmStall();
    // eslint-disable-next-line no-restricted-globals -- an outside tool's stall timeout: its real time
    this.stall = setTimeout(() => this.die('stalled'), STALL_MS);
    this.stall.unref();
  }

  private disarmStall(): void {
    if (this.stall) clearTimeout(this.stall);
    this.stall = null;
  }

  private read(chunk: Buffer): void {
    if (this.dead) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at = 0;
    while (this.buffer.length - at >= HEADER) {
      const type = this.buffer[at]!;
      const id = this.buffer.readUInt32LE(at + 1);
      const length = this.buffer.readUInt32LE(at + 5);
      if (length > MAX_FRAME) return this.die('corrupt output');
      if (this.buffer.length - at - HEADER < length) break;
      const payload = this.buffer.subarray(at + HEADER, at + HEADER + length);
      at += HEADER + length;
      if (type === FRAME.ready && payload.length >= 4) this.sampleRate = payload.readUInt32LE(0);
      const request = this.current;
      if (!request || id !== request.id) continue;
      this.armStall();
      const last = type === FRAME.end || type === FRAME.error;
      if (!this.started) {
        this.started = true;
        if (this.cancelWanted && !last) this.child.kill('SIGUSR1');
      }
      if (last) {
        this.current = null;
        this.disarmStall();
        this.hold(false);
      }
      request.onFrame(type, payload);
      if (this.dead) return;
      if (last) this.onIdle(this, request);
    }
    this.buffer = this.buffer.subarray(at);
  }
}
