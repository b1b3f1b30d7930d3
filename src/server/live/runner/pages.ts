// palkit's own runner for Daily rooms: one child process per Daily conversation, whose headless Chromium
// page joins the Daily room as the PAL and bridges it into the PAL's local room (the same PAL agent as in
// local rooms). Bounded: at most PALKIT_DAILY_RUNNER_PAGES at once on this instance (a start past it is
// refused 429 before anything is scheduled), each in its own process group, killed when its conversation
// ends, when its room expires, or when it stops saying it is alive. A runner that dies or stalls ends
// its own conversation (with the end callbacks, once), never the service or another call.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { packageRoot } from '../../platform/package-root.js';
import type { ClockTimer } from '../../platform/time.js';
import { ShutdownReasons } from '../../../protocol/callbacks.js';
import { signMeetingToken } from '../../providers/conferencing/meeting-token.js';
import { createBotToken } from '../../providers/conferencing/daily.js';
import { PalUnavailableError, RunnerBusyError } from '../../resources/conversations/daily-call-start.js';
import { endConversation } from '../../resources/conversations/end-conversation.js';
import { claimPalJoined } from '../../resources/conversations/pal-joined.js';
import { loadLiveConversation } from '../../resources/conversations/live-conversation.js';
import { finalizeConversation } from '../room/finalize.js';
import { hubFor } from '../hub/hub.js';
import { botUserId } from '../../providers/conferencing/daily.js';
import { RUNNER_ALIVE_MS, type RunnerReport, type RunnerStart } from './page-messages.js';
import { runnerPageAvailable } from './page-script.js';
import { childEnv } from '../../platform/child-env.js';

/** The spec's form for a failure mid-call: the runner is the step that failed. */
export const RUNNER_FAILED_REASON = 'internal error occurred at step pal_runner';
/** A runner that says nothing for this long is stalled, and ended. */
export const RUNNER_STALL_MS = RUNNER_ALIVE_MS * 5;
/** What the runner's Chromium needs besides: the display, and the sound server it plays the PAL through. */
const RUNNER_ENV = ['DISPLAY', 'XDG_RUNTIME_DIR', 'PULSE_SERVER'];

const fromSource = import.meta.url.endsWith('.ts');
export const RUNNER_ENTRY = fromSource ? join(packageRoot, 'live/runner/page-entry.ts') : join(packageRoot, 'dist/daily-runner.js');

interface RunningPage {
  child: ChildProcess | null;
  joined: boolean;
  /** Killed on purpose (the conversation ended, the service stops): its exit ends nothing. */
  stopping: boolean;
  stall: ClockTimer | undefined;
  expiry: ClockTimer | undefined;
  /** The kinds of custom tracks its page published (for logs and tests). */
  published: Array<'audio' | 'video'>;
}

export class RunnerPages {
  private readonly running = new Map<string, RunningPage>();
  private readonly stopBus: () => void;

  constructor(private readonly deps: ServiceDeps) {
    this.stopBus = deps.bus.on('conversation.ended', ({ conversationId }) => this.stop(conversationId));
  }

  /**
   * Whether this instance can run Daily PALs itself (a Daily key, a page allowed, the runner in this build);
   * which PALs it runs is their pick or the default (resources/pals/daily-runner.ts).
   */
  static enabled(deps: Pick<ServiceDeps, 'config'>): boolean {
    const { daily, dailyRunner } = deps.config;
    if (!daily.apiKey || dailyRunner.pages === 0) return false;
    // A stand-in entry (tests) brings its own page, or none; the built-in one needs the page's script.
    return dailyRunner.entry ? existsSync(dailyRunner.entry) : existsSync(RUNNER_ENTRY) && runnerPageAvailable();
  }

  get size(): number {
    return this.running.size;
  }

  /** What the runner of a conversation reported so far (null when none runs here). */
  state(conversationId: string): { pid: number | undefined; joined: boolean; published: Array<'audio' | 'video'> } | null {
    const page = this.running.get(conversationId);
    return page ? { pid: page.child?.pid, joined: page.joined, published: [...page.published] } : null;
  }

  /**
   * Takes a slot for the conversation now, synchronously (throws RunnerBusyError past the cap), so that
   * concurrent starts cannot both take the last one.
   */
  reserve(conversationId: string): void {
    if (this.running.has(conversationId)) return;
    const cap = this.deps.config.dailyRunner.pages;
    if (this.running.size >= cap) throw new RunnerBusyError(cap);
    this.running.set(conversationId, {
      child: null,
      joined: false,
      stopping: false,
      stall: undefined,
      expiry: undefined,
      published: [],
    });
  }

  /**
   * Starts the reserved conversation's runner. When it cannot be started (no bot token, no process) the
   * conversation ends (startup exception) and PalUnavailableError is thrown; later failures end it too.
   */
  async launch(conversationId: string, room: { url: string; name: string }, expiresAt: Date): Promise<void> {
    const page = this.running.get(conversationId);
    if (!page || page.stopping) return;
    const { config, secrets, clock } = this.deps;
    try {
      const conv = await loadLiveConversation(this.deps.db, conversationId);
      if (!conv) throw new Error('conversation vanished before its runner started');
      const dailyToken = await createBotToken(
        { apiKey: config.daily.apiKey!, apiUrl: config.daily.apiUrl, fetch: this.deps.fetch },
        { room: room.name, exp: Math.floor(expiresAt.getTime() / 1000), userName: conv.pal.name, userId: botUserId(conv.pal.palId) },
      );
      if (page.stopping) return;
      const start: RunnerStart = {
        type: 'start',
        conversationId,
        dailyUrl: room.url,
        dailyToken,
        palName: conv.pal.name,
        bridgeUrl: `${config.publicUrl}/rooms/${conversationId}`,
        bridgeToken: signMeetingToken(secrets, conversationId, expiresAt, 'bridge'),
        chromium: config.dailyRunner.chromium,
        serviceUrl: config.publicUrl,
      };
      const entry = config.dailyRunner.entry ?? RUNNER_ENTRY;
      const child = fork(entry, [], {
        execArgv: entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [],
        // Its own process group: ending it ends its Chromium too.
        detached: true,
        env: childEnv(RUNNER_ENV),
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      page.child = child;
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.on('message', (message: RunnerReport) => this.report(conversationId, page, message));
      child.on('error', (error) =>
        this.deps.log.error('Daily runner process error', { conversation_id: conversationId, error: error.message }),
      );
      child.on('exit', (code, signal) => void this.exited(conversationId, page, code, signal, stderr));
      child.send(start);
      this.arm(conversationId, page);
      // Never past its room's expiry, whatever else happens.
      page.expiry = clock.setTimeout(() => this.stop(conversationId), Math.max(0, expiresAt.getTime() - clock.now().getTime()));
      page.expiry.unref();
      this.deps.log.info('Daily runner started', { conversation_id: conversationId, pid: child.pid, runners: this.running.size });
    } catch (error) {
      // As a refused handoff: the conversation ends (its callbacks once) and the start answers 503 pal_unavailable.
      const message = error instanceof Error ? error.message : String(error);
      await this.fail(conversationId, page, message);
      throw new PalUnavailableError(`palkit's runner could not start: ${message}`);
    }
  }

  /** Kills the conversation's runner (its conversation ended, or the service stops); idempotent. */
  stop(conversationId: string): void {
    const page = this.running.get(conversationId);
    if (!page) return;
    page.stopping = true;
    this.release(conversationId, page);
  }

  async close(): Promise<void> {
    this.stopBus();
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  private report(conversationId: string, page: RunningPage, message: RunnerReport): void {
    this.arm(conversationId, page);
    if (message.type === 'joined' && !page.joined) {
      page.joined = true;
      this.deps.log.info('Daily runner joined its room', { conversation_id: conversationId });
      claimPalJoined(this.deps, conversationId).catch((error: unknown) =>
        this.deps.log.error('sending pal_joined failed', { conversation_id: conversationId, error: String(error) }),
      );
    } else if (message.type === 'published') {
      page.published = [...new Set([...page.published, ...message.tracks])];
    } else if (message.type === 'failed') {
      this.deps.log.error('Daily runner failed', { conversation_id: conversationId, error: message.message.slice(0, 500) });
    }
  }

  /** (Re)arms the stall timer: a runner silent for RUNNER_STALL_MS is killed, and its exit ends the call. */
  private arm(conversationId: string, page: RunningPage): void {
    this.deps.clock.clearTimeout(page.stall);
    page.stall = this.deps.clock.setTimeout(() => {
      this.deps.log.error('Daily runner stalled; it is ended', { conversation_id: conversationId, silent_ms: RUNNER_STALL_MS });
      kill(page.child);
    }, RUNNER_STALL_MS);
    page.stall.unref();
  }

  private async exited(conversationId: string, page: RunningPage, code: number | null, signal: string | null, stderr: string) {
    this.release(conversationId, page);
    if (page.stopping) return;
    await this.fail(
      conversationId,
      page,
      `the runner exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().slice(-300)}` : ''}`,
    );
  }

  /** Ends the conversation of a runner that could not start or went away, with its end callbacks once. */
  private async fail(conversationId: string, page: RunningPage, why: string): Promise<void> {
    page.stopping = true;
    this.release(conversationId, page);
    const reason = page.joined ? RUNNER_FAILED_REASON : ShutdownReasons.startupException;
    this.deps.log.error('Daily runner gone; its conversation ends', { conversation_id: conversationId, reason, error: why });
    try {
      if (!(await endConversation(this.deps, conversationId, reason))) return;
      // A PAL room held here sends them when it closes (after the PAL's last words are stored).
      if (!hubFor(this.deps).holds(conversationId)) await finalizeConversation(this.deps, conversationId, reason);
    } catch (error) {
      this.deps.log.error('ending a Daily conversation failed', { conversation_id: conversationId, error: String(error) });
    }
  }

  private release(conversationId: string, page: RunningPage): void {
    this.deps.clock.clearTimeout(page.stall);
    this.deps.clock.clearTimeout(page.expiry);
    kill(page.child);
    if (this.running.get(conversationId) === page) this.running.delete(conversationId);
  }
}

/** Kills a runner's whole process group (its Chromium with it). */
function kill(child: ChildProcess | null): void {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** The runner pages of this service. */
export const runnerPagesFor = onePer((deps: ServiceDeps) => new RunnerPages(deps));
