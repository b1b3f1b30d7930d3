// The local PAL's voice: one utterance at a time, words paced at a speaking rate so that a reply takes
// as long as it would to say (and an interrupt can cut it), streamed as the interactions protocol does:
// started_speaking, utterance.streaming…(final), utterance, stopped_speaking; or, when cut,
// a final streaming event with is_interrupted, replica_interrupted and stopped_speaking{interrupted}.
import { roundSeconds } from './transcript-store.js';

/** Text as it becomes available (a language model's stream, or a whole sentence at once). */
export type SpeechSource = (signal: AbortSignal) => AsyncIterable<string>;

export interface SpeechEmitter {
  /** Sends one PAL message to the room (the envelope is added by the caller). */
  emit(eventType: string, properties: Record<string, unknown>, ids: { inferenceId: string; turnIdx: number }): void;
}

export interface Utterance {
  inferenceId: string;
  turnIdx: number;
  /** The disclosure must be delivered whole: interrupts do not cut it. */
  interruptible: boolean;
  /** Runs right after the utterance's last event (before the next queued one starts). */
  after?: (result: SpokenResult) => void;
}

export interface SpokenResult {
  text: string;
  startedAt: Date;
  duration: number;
  interrupted: boolean;
}

interface Current {
  abort: AbortController;
  utterance: Utterance;
}

export class Speaker {
  private tail: Promise<unknown> = Promise.resolve();
  private current: Current | null = null;
  private readonly pending = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly emitter: SpeechEmitter,
    private readonly msPerWord: number,
    private readonly now: () => Date,
    private readonly onSpoken: (utterance: Utterance, result: SpokenResult) => Promise<void>,
  ) {}

  get speaking(): boolean {
    return this.current !== null;
  }

  /** Queues an utterance; resolves when it was said (or cut, or dropped: null). */
  say(source: SpeechSource, utterance: Utterance): Promise<SpokenResult | null> {
    const abort = new AbortController();
    this.pending.add(abort);
    const run = this.tail.then(async () => {
      this.pending.delete(abort);
      if (abort.signal.aborted || this.closed) return null;
      this.current = { abort, utterance };
      try {
        return await this.speak(source, utterance, abort.signal);
      } finally {
        this.current = null;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Cuts what is being said (unless it must not be cut) and drops what was queued; true if anything was cut. */
  interrupt(): boolean {
    for (const queued of this.pending) queued.abort();
    this.pending.clear();
    if (!this.current || !this.current.utterance.interruptible) return false;
    this.current.abort.abort();
    return true;
  }

  /** Stops for good (room shutdown): cuts even the disclosure, then waits until the last words are recorded. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.pending) queued.abort();
    this.current?.abort.abort();
    await this.tail;
  }

  private async speak(source: SpeechSource, utterance: Utterance, signal: AbortSignal): Promise<SpokenResult | null> {
    const ids = { inferenceId: utterance.inferenceId, turnIdx: utterance.turnIdx };
    let spoken = '';
    let contentIndex = 0;
    let startedAt: Date | null = null;
    let interrupted = false;
    const start = () => {
      startedAt = this.now();
      this.emitter.emit('conversation.replica.started_speaking', {}, ids);
    };
    try {
      for await (const chunk of source(signal)) {
        for (const word of chunk.split(/(?<=\s)/)) {
          if (signal.aborted) throw signal.reason;
          if (!word) continue;
          if (!startedAt) {
            if (!word.trim()) continue;
            start();
          }
          spoken += word;
          if (!word.trim()) continue;
          this.emitter.emit('conversation.utterance.streaming', { role: 'replica', speech: spoken.trim(), final: false, content_index: contentIndex++ }, ids);
          await sleep(this.msPerWord, signal);
        }
      }
    } catch {
      // Cut by an interrupt, or the text source failed (it reports its own errors): what was said stands.
      interrupted = signal.aborted;
    }
    if (!startedAt) return null;
    const began: Date = startedAt;
    const text = spoken.trim();
    const duration = roundSeconds((this.now().getTime() - began.getTime()) / 1000);
    if (interrupted) {
      this.emitter.emit('conversation.utterance.streaming', { role: 'replica', speech: text, final: true, is_interrupted: true, content_index: contentIndex }, ids);
      this.emitter.emit('conversation.replica_interrupted', {}, ids);
      this.emitter.emit('conversation.replica.stopped_speaking', { duration, interrupted: true }, ids);
    } else {
      this.emitter.emit('conversation.utterance.streaming', { role: 'replica', speech: text, final: true, content_index: contentIndex }, ids);
      this.emitter.emit('conversation.utterance', { role: 'replica', speech: text }, ids);
      this.emitter.emit('conversation.replica.stopped_speaking', { duration, interrupted: false }, ids);
    }
    const result = { text, startedAt: began, duration, interrupted };
    utterance.after?.(result);
    await this.onSpoken(utterance, result);
    return result;
  }
}

/** Milliseconds per word at a rate in words per minute. */
export function msPerWord(wordsPerMinute: number): number {
  return 60_000 / wordsPerMinute;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
