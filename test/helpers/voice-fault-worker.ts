// The local voice's worker (wasm-worker.ts) with faults planted in it, for supervision tests: a file
// named `hang`, `throw` or `exit` in the folder PALKIT_TEST_VOICE_FAULTS is taken by the first worker that
// is in the middle of a sentence (after its third chunk of samples), which then loops forever, throws
// out of eSpeak's callback (as a WebAssembly trap would) or exits. A file named `slow-start` is taken by
// the first worker given a request, which then works 4.5 s before saying it (a cold thread on a loaded
// machine). Each file is one fault, taken once.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';

const folder = process.env.PALKIT_TEST_VOICE_FAULTS;
const FAULTS = ['hang', 'throw', 'exit'] as const;

function claim<F extends string>(faults: readonly F[]): F | null {
  if (!folder) return null;
  for (const fault of faults) {
    try {
      renameSync(join(folder, fault), join(folder, `${fault}.taken-by-${process.pid}-${threadId}`));
      return fault;
    } catch {
      // Not planted, or another worker took it.
    }
  }
  return null;
}

const port = parentPort!;
const post = port.postMessage.bind(port);
let chunks = 0;
port.postMessage = (message: { type?: string }, transfer?: readonly ArrayBuffer[]) => {
  post(message, transfer as ArrayBuffer[]);
  if (message.type === 'end' || message.type === 'error') chunks = 0;
  if (message.type !== 'events' || ++chunks !== 3) return;
  const fault = claim(FAULTS);
  if (fault === 'hang') for (;;);
  if (fault === 'throw') throw new Error('planted fault');
  if (fault === 'exit') process.exit(7);
};

// Registered before the worker's own listener, so it runs first.
port.on('message', () => {
  if (!claim(['slow-start'])) return;
  for (const until = Date.now() + 4_500; Date.now() < until;);
});

await import('../../src/server/providers/voice/espeak/wasm-worker.js');
