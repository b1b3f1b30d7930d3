// Lets the visitor talk to the PAL in the local room, which receives no audio: where the browser has
// speech recognition (Chrome, Edge, Safari), what the microphone hears becomes the visitor's utterance
// (`conversation.utterance`, role `user`) between `conversation.user.started_speaking` and
// `…stopped_speaking`, as a Daily room's transcription delivers it. It listens only while the
// microphone is on, and pauses while the PAL speaks so the PAL does not answer itself. When the visitor
// spoke and nothing came of it (a turn that ended without words, recognition that heard nothing after
// the visitor cut the PAL off, or recognition that stopped working), it says so, so silence never
// follows the visitor's words.
import { pageTimers, type TimerHandle, type Timers } from '../timers.js';

/** The part of the Web Speech API's SpeechRecognition used here. */
export interface Recognition extends EventTarget {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  start(): void;
  stop(): void;
  abort(): void;
}

interface RecognitionResultEvent extends Event {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

export type RecognitionFactory = () => Recognition | null;

/** Whether the browser recognises speech itself (Firefox does not). */
export function browserRecognises(): boolean {
  const scope = globalThis as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  return typeof (scope.SpeechRecognition ?? scope.webkitSpeechRecognition) === 'function';
}

/** The browser's own recognition, or null where it has none (Firefox). */
export function browserRecognition(): Recognition | null {
  const scope = globalThis as { SpeechRecognition?: new () => Recognition; webkitSpeechRecognition?: new () => Recognition };
  const Ctor = scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
  return Ctor ? new Ctor() : null;
}

/** Errors after which listening cannot work in this page: permission refused, no recognition service. */
const FATAL = new Set(['not-allowed', 'service-not-allowed', 'network', 'audio-capture', 'language-not-supported']);
/** Recognition ends by itself after a silence; it is started again after this pause. */
const RESTART_MS = 300;
/** After the visitor cut the PAL off, words are expected within this long once listening again. */
const EXPECT_WORDS_MS = 6000;
/** Words within this long before the PAL stopped are what stopped it. */
const RECENT_WORDS_MS = 3000;

/** `missed`: the visitor spoke but no words came of it; `lost`: recognition stopped working in this page. */
export type HearingTrouble = 'missed' | 'lost';

export interface LocalListenerOptions {
  create?: RecognitionFactory;
  lang?: string;
  /** Told when the visitor's speech came to nothing (see HearingTrouble). */
  trouble?: (kind: HearingTrouble) => void;
  /** How long to wait for words after the visitor cut the PAL off (default 6 s). */
  expectWordsMs?: number;
  /** The clock the restart and the wait for words run on (default: the page's). */
  timers?: Timers;
}

export type HeardMessage = { message_type: 'conversation'; event_type: string; properties: Record<string, unknown> };

export class LocalListener {
  readonly #recognition: Recognition | null;
  readonly #hear: (message: HeardMessage) => void;
  #micOn = false;
  #palSpeaking = false;
  #closed = false;
  #running = false;
  /** Words of the current turn have been heard (started_speaking was sent). */
  #inTurn = false;
  #restart: TimerHandle | undefined;
  readonly #trouble: (kind: HearingTrouble) => void;
  readonly #expectWordsMs: number;
  readonly #timers: Timers;
  /** The visitor cut the PAL off: words are on their way (set until they arrive or the wait runs out). */
  #expecting = false;
  #expectTimer: TimerHandle | undefined;
  /** When the visitor's words last reached the PAL (epoch ms). */
  #heardAt = 0;

  constructor(hear: (message: HeardMessage) => void, options: LocalListenerOptions = {}) {
    this.#hear = hear;
    this.#trouble = options.trouble ?? (() => undefined);
    this.#expectWordsMs = options.expectWordsMs ?? EXPECT_WORDS_MS;
    this.#timers = options.timers ?? pageTimers;
    this.#recognition = (options.create ?? browserRecognition)();
    const recognition = this.#recognition;
    if (!recognition) return;
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.lang =
      options.lang ||
      (typeof document === 'undefined' ? '' : document.documentElement.lang) ||
      (typeof navigator === 'undefined' ? 'en' : navigator.language);
    recognition.addEventListener('result', (event) => this.#onResult(event as RecognitionResultEvent));
    recognition.addEventListener('error', (event) => {
      const error = (event as Event & { error?: string }).error ?? '';
      if (FATAL.has(error) && !this.#closed) {
        this.#closed = true;
        this.#stopExpecting();
        this.#trouble('lost');
      } else if (error === 'no-speech' && this.#expecting) {
        // The visitor's words were spoken while recognition was paused for the PAL, or were too quiet.
        this.#missed();
      }
    });
    recognition.addEventListener('end', () => {
      this.#running = false;
      // A turn that began (interim words) but ended without a final result gave the PAL nothing to answer.
      if (this.#inTurn && this.#micOn) this.#missed();
      this.#endTurn();
      this.#timers.clear(this.#restart);
      if (this.#wanted()) this.#restart = this.#timers.setTimeout(() => this.#sync(), RESTART_MS);
    });
  }

  /** Whether this browser can turn the visitor's speech into text at all. */
  get available(): boolean {
    return this.#recognition !== null && !this.#closed;
  }

  setMicrophone(on: boolean): void {
    this.#micOn = on;
    this.#sync();
  }

  setPalSpeaking(speaking: boolean): void {
    this.#palSpeaking = speaking;
    this.#sync();
    if (!speaking && this.#expecting) this.#armExpect();
  }

  /**
   * The visitor spoke over the PAL and cut it off (the room heard speech): words should follow. If
   * recognition gives none soon after it listens again, the visitor is told.
   */
  expectWords(): void {
    // A typed line (or words heard just now) is what cut the PAL off: nothing is owed.
    if (!this.available || !this.#micOn || this.#timers.now() - this.#heardAt < RECENT_WORDS_MS) return;
    this.#expecting = true;
    if (!this.#palSpeaking) this.#armExpect();
  }

  /** The visitor's words reached the PAL another way (typed, or heard by the room): nothing is missing. */
  heard(): void {
    this.#heardAt = this.#timers.now();
    this.#stopExpecting();
  }

  close(): void {
    this.#closed = true;
    this.#timers.clear(this.#restart);
    this.#stopExpecting();
    this.#sync();
  }

  #armExpect(): void {
    this.#timers.clear(this.#expectTimer);
    this.#expectTimer = this.#timers.setTimeout(() => this.#missed(), this.#expectWordsMs);
  }

  #stopExpecting(): void {
    this.#expecting = false;
    this.#timers.clear(this.#expectTimer);
    this.#expectTimer = undefined;
  }

  #missed(): void {
    this.#stopExpecting();
    if (!this.#closed) this.#trouble('missed');
  }

  #wanted(): boolean {
    return this.available && this.#micOn && !this.#palSpeaking;
  }

  #sync(): void {
    const recognition = this.#recognition;
    if (!recognition) return;
    if (this.#wanted() && !this.#running) {
      try {
        recognition.start();
        this.#running = true;
      } catch {
        // Already starting (an `end` is on its way) or refused: the next change tries again.
      }
    } else if (!this.#wanted() && this.#running) {
      // stop() still delivers what was heard so far; abort() would drop it.
      recognition.stop();
    }
  }

  #onResult(event: RecognitionResultEvent): void {
    for (let i = event.resultIndex; i < event.results.length; i++) {
      const result = event.results[i]!;
      const text = result[0]?.transcript.trim() ?? '';
      if (!text) continue;
      if (!this.#inTurn) {
        this.#inTurn = true;
        this.#stopExpecting();
        this.#hear(message('conversation.user.started_speaking'));
      }
      if (result.isFinal) {
        this.heard();
        this.#endTurn();
        this.#hear(message('conversation.utterance', { role: 'user', speech: text }));
      }
    }
  }

  #endTurn(): void {
    if (!this.#inTurn) return;
    this.#inTurn = false;
    this.#hear(message('conversation.user.stopped_speaking'));
  }
}

function message(event_type: string, properties: Record<string, unknown> = {}): HeardMessage {
  return { message_type: 'conversation', event_type, properties };
}
