// The messages between wasm-speaker.ts (the service's thread) and wasm-worker.ts (eSpeak's thread).
import type { Viseme } from '../../../../protocol/visemes.js';

export interface WorkerData {
  /** One Int32: the id of the request to stop (the worker reads it while it synthesises). */
  cancel: SharedArrayBuffer;
}

export interface WorkerRequest {
  id: number;
  voice: string;
  rate: number;
  text: string;
}

export type WorkerEvent =
  { type: 'word'; atMs: number; position: number; length: number } | { type: 'viseme'; atMs: number; viseme: Viseme; leadsIn?: boolean };

export type WorkerReply =
  | { type: 'ready'; sampleRate: number }
  /** Its warm-up sentences are said: from now on a sentence takes tens of milliseconds, not seconds. */
  | { type: 'warm' }
  /** One chunk: its samples, then the words and mouth shapes eSpeak reported with it. */
  | { type: 'events'; id: number; samples: Int16Array; events: WorkerEvent[] }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; message: string };
