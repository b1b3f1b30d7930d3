// Loaded with `--import` into a service process under test: its local voice's threads run
// voice-fault-worker.ts (the real worker, with faults planted on request) instead of wasm-worker.ts.
// Nothing else changes: the service starts them as it always does (eval code naming the worker's file).
import { syncBuiltinESMExports } from 'node:module';
import workerThreads, { type WorkerOptions } from 'node:worker_threads';

const REAL = new URL('../../src/server/providers/voice/espeak/wasm-worker.ts', import.meta.url).href;
const PLANTED = new URL('./voice-fault-worker.ts', import.meta.url).href;
const Original = workerThreads.Worker;

class WithPlantedFaults extends Original {
  constructor(filename: string | URL, options?: WorkerOptions) {
    super(typeof filename === 'string' && options?.eval ? filename.replaceAll(REAL, PLANTED) : filename, options);
  }
}

workerThreads.Worker = WithPlantedFaults;
syncBuiltinESMExports();
