// A worker thread running eSpeak NG compiled to WebAssembly: the local voice without anything outside
// npm. Started by wasm-speaker.ts; says one request at a time. eSpeak synthesises synchronously, so while
// it speaks this thread reads no messages: a cancel arrives through a shared flag that the synthesis
// callback checks at every chunk (~10 ms of work). Anything thrown here (a WebAssembly trap, an abort)
// ends this thread only; the pool replaces it and says the sentence again.
import { parentPort, workerData } from 'node:worker_threads';
import loadEspeak from '@echogarden/espeak-ng-emscripten';
import { leadsIn, visemeOfIpa } from '../visemes-of.js';
import type { WorkerData, WorkerReply, WorkerRequest, WorkerEvent } from './wasm-protocol.js';
import { callerSpan, espeakText } from './wasm-text.js';

const port = parentPort!;
const { cancel: cancelBuffer } = workerData as WorkerData;
const cancelled = new Int32Array(cancelBuffer);
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// eSpeak's own messages (a missing dictionary, say) are not the service's log: they are dropped here.
const quiet = () => undefined;
const engine = new (await loadEspeak({ print: quiet, printErr: quiet })).eSpeakNGWorker();
let voice = '';

// The first sentences run while the engine's code is still being compiled to its fastest form (a
// sentence takes a second or more on a loaded machine, against tens of milliseconds once compiled): a
// few short texts are said while the thread is idle, one at a time, so that a request that arrives
// meanwhile waits for one short text at most.
const WARM_UP = 'Hello, this warms the voice up: one, two, three.';
const WARM_UPS = 8;
engine.set_voice('en-us');
voice = 'en-us';
let warmUps = 0;
let busy = false;
function warmWhileIdle(): void {
  if (busy || warmUps >= WARM_UPS) return;
  warmUps++;
  if (voice !== 'en-us') engine.set_voice((voice = 'en-us'));
  engine.synthesize(WARM_UP, () => false);
  if (warmUps === WARM_UPS) reply({ type: 'warm' });
  else setImmediate(warmWhileIdle);
}

function isRequest(value: unknown): value is WorkerRequest {
  const r = value as Partial<WorkerRequest> | null;
  return (
    !!r &&
    Number.isSafeInteger(r.id) &&
    typeof r.voice === 'string' &&
    /^[A-Za-z0-9_][A-Za-z0-9_+\-/]{0,39}$/.test(r.voice) &&
    Number.isFinite(r.rate) &&
    typeof r.text === 'string'
  );
}

function say(request: WorkerRequest): void {
  const { id } = request;
  if (Atomics.load(cancelled, 0) === id) return reply({ type: 'end', id });
  if (voice !== request.voice) {
    if (engine.set_voice(request.voice) !== 0) return reply({ type: 'error', id, message: 'unknown voice' });
    voice = request.voice;
  }
  // eSpeak keeps the rate within what it can say (this build has no speed-up past ~450 words a minute).
  engine.rate = Math.max(80, Math.min(1000, Math.round(request.rate)));
  const mapped = espeakText(request.text);
  engine.synthesize(mapped.text, (samples, events) => {
    if (Atomics.load(cancelled, 0) === id) return true;
    const out: WorkerEvent[] = [];
    for (const e of events) {
      if (e.type === 'word') {
        const span = callerSpan(mapped, e.text_position, e.word_length);
        if (span) out.push({ type: 'word', atMs: e.audio_position, ...span });
      } else if (e.type === 'phoneme') {
        const ipa = typeof e.id === 'string' ? e.id : '';
        out.push({ type: 'viseme', atMs: e.audio_position, viseme: visemeOfIpa(ipa), ...(leadsIn(ipa) ? { leadsIn: true } : {}) });
      }
    }
    // Samples before the events, as the bridge sends them: a word's audio is never behind its caption.
    const copy = new Int16Array(samples);
    reply({ type: 'events', id, samples: copy, events: out }, [copy.buffer]);
    return false;
  });
  reply({ type: 'end', id });
}

port.on('message', (message: unknown) => {
  busy = true;
  try {
    if (isRequest(message)) return say(message);
    const id = (message as { id?: unknown } | null)?.id;
    reply({ type: 'error', id: Number.isSafeInteger(id) ? (id as number) : -1, message: 'malformed request' });
  } finally {
    busy = false;
    setImmediate(warmWhileIdle);
  }
});
reply({ type: 'ready', sampleRate: engine.samplerate });
setImmediate(warmWhileIdle);
