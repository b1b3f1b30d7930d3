// What the local PAL says: one utterance at a time, cut into sentences and voiced (PalVoice), with its
// captions following the audio word by word, streamed as the interactions protocol does:
// started_speaking, utterance.streaming…(final), utterance, stopped_speaking; or, when cut,
// a final streaming event with is_interrupted, replica_interrupted and stopped_speaking{interrupted}.
import type { VoiceChoice } from '../../providers/voice/synthesis.js';
import type { PalVoice, VoiceStage } from '../../providers/voice/pal-voice.js';
import { piecesOf, type AudioPiece } from '../../providers/voice/speech-pieces.js';
import { roundSeconds } from '../../resources/conversations/transcript-store.js';

/** Text as it becomes available (a language model's stream, or a whole sentence at once), or audio to say as it is. */
export type SpeechSource = (signal: AbortSignal) => AsyncIterable<string | AudioPiece>;

/** How far an utterance's first sound got: its first words written, then PalVoice's stages. */
export type ReplyStage = 'text' | VoiceStage;

export interface SpeechEmitter {
  /** Sends one PAL message to the room (the envelope is added by the caller). */
  emit(eventType: string, properties: Record<string, unknown>, ids: { inferenceId: string; turnIdx: number }): void;
  /** The utterance reached `stage` (each once), for the debug marks of where a reply's latency goes. */
  mark?(stage: ReplyStage, ids: { inferenceId: string; turnIdx: number }): void;
  /** The utterance as heard so far, word by word (the transcript keeps it as it goes). */
  heard?(speech: string, startedAt: Date, ids: { inferenceId: string; turnIdx: number }): void;
}

export interface Utterance {
  inferenceId: string;
  turnIdx: number;
  /** The disclosure must be delivered whole: interrupts do not cut it. */
  interruptible: boolean;
  /** The language of this reply, when it is not the conversation's first (the visitor spoke another of its languages). */
  language?: string;
  /** Runs right after the utterance's last event (before the next queued one starts). */
  after?: (result: SpokenResult) => void;
}

export interface SpokenResult {
  text: string;
  startedAt: Date;
  duration: number;
  interrupted: boolean;
}

/**
 * How many utterances may wait for their turn. Replies, greetings and operator echoes queue
 * here, and an echo holds its audio until its turn: past this the newest is dropped (resolved null), as
 * an interrupt drops what waits.
 */
export const MAX_QUEUED_UTTERANCES = 8;

interface Current {
  abort: AbortController;
  utterance: Utterance;
}

export class Speaker {
  private tail: Promise<unknown> = Promise.resolve();
  private current: Current | null = null;
  /** Utterances waiting for their turn, each with its own abort. */
  private readonly pending = new Map<AbortController, Utterance>();
  private closed = false;

  constructor(
    private readonly emitter: SpeechEmitter,
    private readonly voice: PalVoice,
    private readonly voiceChoice: (language: string | undefined) => VoiceChoice,
    private readonly now: () => Date,
    private readonly onSpoken: (utterance: Utterance, result: SpokenResult) => Promise<void>,
    private readonly onVoiceFailed: (error: unknown) => void,
    private readonly maxQueued = MAX_QUEUED_UTTERANCES,
  ) {}

  get speaking(): boolean {
    return this.current !== null;
  }

  /** Queues an utterance; resolves when it was said (or cut, or dropped: null, also when the queue is full). */
  say(source: SpeechSource, utterance: Utterance): Promise<SpokenResult | null> {
    if (this.pending.size >= this.maxQueued || this.closed) return Promise.resolve(null);
    const abort = new AbortController();
    this.pending.set(abort, utterance);
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

  /**
   * Nothing queued from now on starts before `gate` resolves (the PAL's first line waits for its face to be
   * shown); what is being said goes on. The gate must resolve: close() waits for it.
   */
  holdUntil(gate: Promise<unknown>): void {
    this.tail = Promise.all([this.tail, gate.catch(() => undefined)]);
  }

  /**
   * Cuts what is being said and drops what was queued, except what must not be cut (the disclosure, said
   * whole and never skipped); true if anything was cut.
   */
  interrupt(): boolean {
    for (const [queued, utterance] of this.pending) {
      if (!utterance.interruptible) continue;
      queued.abort();
      this.pending.delete(queued);
    }
    if (!this.current || !this.current.utterance.interruptible) return false;
    this.current.abort.abort();
    return true;
  }

  /** Stops for good (room shutdown): cuts even the disclosure, then waits until the last words are recorded. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.pending.keys()) queued.abort();
    this.current?.abort.abort();
    await this.tail;
  }

  private async speak(source: SpeechSource, utterance: Utterance, signal: AbortSignal): Promise<SpokenResult | null> {
    const ids = { inferenceId: utterance.inferenceId, turnIdx: utterance.turnIdx };
    /** The sentences as far as they have been heard: whole ones, then the one being said. */
    const heard: string[] = [];
    const played: string[] = [];
    let contentIndex = 0;
    let startedAt: Date | null = null;
    let interrupted = false;
    const emitter = this.emitter;
    const record = async function* (pieces: AsyncIterable<string | AudioPiece>) {
      for await (const piece of pieces) {
        if (!played.length) emitter.mark?.('text', ids);
        // Audio pieces hold their place (without words), so that heard[] and played[] line up.
        played.push(typeof piece === 'string' ? piece : '');
        yield piece;
      }
    };
    try {
      await this.voice.speak(
        record(piecesOf(source(signal))),
        this.voiceChoice(utterance.language),
        {
          onStart: () => {
            startedAt = this.now();
            this.emitter.emit('conversation.replica.started_speaking', {}, ids);
          },
          onWord: (index, sentence, end) => {
            for (let i = heard.length; i < index; i++) heard[i] = played[i] ?? '';
            heard[index] = sentence.slice(0, end);
            const speech = joined(heard);
            this.emitter.emit(
              'conversation.utterance.streaming',
              { role: 'replica', speech, final: false, content_index: contentIndex++ },
              ids,
            );
            if (startedAt) this.emitter.heard?.(speech, startedAt, ids);
          },
          onVoiceFailed: (error) => this.onVoiceFailed(error),
          onStage: (stage) => this.emitter.mark?.(stage, ids),
        },
        signal,
      );
    } catch {
      // Cut by an interrupt, or the text source failed (it reports its own errors): what was heard stands.
      interrupted = signal.aborted;
    }
    if (!startedAt) return null;
    const began: Date = startedAt;
    const text = interrupted ? joined(heard) : joined(played);
    const duration = roundSeconds((this.now().getTime() - began.getTime()) / 1000);
    if (!text) {
      // Audio given as it is (echo): there are no words to caption.
      if (interrupted) this.emitter.emit('conversation.replica_interrupted', {}, ids);
      this.emitter.emit('conversation.replica.stopped_speaking', { duration, interrupted }, ids);
    } else if (interrupted) {
      this.emitter.emit(
        'conversation.utterance.streaming',
        { role: 'replica', speech: text, final: true, is_interrupted: true, content_index: contentIndex },
        ids,
      );
      this.emitter.emit('conversation.replica_interrupted', {}, ids);
      this.emitter.emit('conversation.replica.stopped_speaking', { duration, interrupted: true }, ids);
    } else {
      this.emitter.emit(
        'conversation.utterance.streaming',
        { role: 'replica', speech: text, final: true, content_index: contentIndex },
        ids,
      );
      this.emitter.emit('conversation.utterance', { role: 'replica', speech: text }, ids);
      this.emitter.emit('conversation.replica.stopped_speaking', { duration, interrupted: false }, ids);
    }
    const result = { text, startedAt: began, duration, interrupted };
    utterance.after?.(result);
    await this.onSpoken(utterance, result);
    return result;
  }
}

function joined(sentences: string[]): string {
  return sentences
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
}

/** Milliseconds per word at a rate in words per minute. */
export function msPerWord(wordsPerMinute: number): number {
  return 60_000 / wordsPerMinute;
}
