// One eSpeak NG instance the pool (../espeak.ts) hands sentences to: a worker thread running eSpeak
// compiled to WebAssembly (wasm-speaker.ts, the default), or a child process running the native bridge
// (native-speaker.ts, opt-in on Linux). Both say one request at a time and report what they hear from
// eSpeak in the same terms, so the pool's supervision (retry, fairness, cancel) is one piece of code.
import type { Viseme } from '../../../../protocol/visemes.js';

export type SpeakerEvent =
  | { type: 'audio'; samples: Int16Array }
  /** A word starts at `atMs`; `position` counts characters of the request's text from 1. */
  | { type: 'word'; atMs: number; position: number; length: number }
  | { type: 'viseme'; atMs: number; viseme: Viseme; leadsIn?: boolean }
  | { type: 'end' }
  | { type: 'error'; message: string };

export interface SpeakerRequest {
  id: number;
  /** eSpeak's voice name (en-us, de, cmn…). */
  voice: string;
  rate: number;
  /** One line, no control characters (speakableText in ../espeak.ts). */
  text: string;
  /** What eSpeak reported; `end` and `error` close the request. */
  onEvent(event: SpeakerEvent): void;
}

export interface Speaker {
  /** For operators and tests: the bridge's process id, or the worker's thread id. */
  readonly id: number | undefined;
  /** The rate of its samples, once it has started. */
  readonly sampleRate: number | null;
  /** Whether it says a sentence at full speed yet (a WebAssembly thread warms up after it starts). */
  readonly warm: boolean;
  run(request: SpeakerRequest): void;
  /** Stops the request if it is the one being said; its `end` follows. */
  cancel(id: number): void;
  /** Ends it on purpose (the service stops): no death is reported. */
  stop(): void;
}

export interface SpeakerHooks {
  /** Called once when the speaker is gone without stop(): with the request it was serving. */
  onDeath(speaker: Speaker, request: SpeakerRequest | null, reason: string): void;
  /** Called when the request in flight got its last event. */
  onIdle(speaker: Speaker, request: SpeakerRequest): void;
}

/** Makes a speaker, or null when this machine cannot run this engine. */
export type SpeakerFactory = (hooks: SpeakerHooks) => Speaker | null;
