// Lets the visitor talk to the PAL in the local room, which receives no audio: where the browser has
// speech recognition (Chrome, Edge, Safari), what the microphone hears becomes the visitor's utterance
// (`conversation.utterance`, role `user`) between `conversation.user.started_speaking` and
// `…stopped_speaking`, as a Daily room's transcription delivers it. It listens only while the
// microphone is on, and pauses while the PAL speaks so the PAL does not answer itself.

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
  #restart: ReturnType<typeof setTimeout> | undefined;

  constructor(hear: (message: HeardMessage) => void, options: { create?: RecognitionFactory; lang?: string } = {}) {
    this.#hear = hear;
    this.#recognition = (options.create ?? browserRecognition)();
    const recognition = this.#recognition;
    if (!recognition) return;
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.lang = options.lang || (typeof document === 'undefined' ? '' : document.documentElement.lang) || (typeof navigator === 'undefined' ? 'en' : navigator.language);
    recognition.addEventListener('result', (event) => this.#onResult(event as RecognitionResultEvent));
    recognition.addEventListener('error', (event) => {
      if (FATAL.has((event as Event & { error?: string }).error ?? '')) this.#closed = true;
    });
    recognition.addEventListener('end', () => {
      this.#running = false;
      this.#endTurn();
      clearTimeout(this.#restart);
      if (this.#wanted()) this.#restart = setTimeout(() => this.#sync(), RESTART_MS);
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
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#restart);
    this.#sync();
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
        this.#hear(message('conversation.user.started_speaking'));
      }
      if (result.isFinal) {
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
