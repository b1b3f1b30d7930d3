// Loaded with `--import` into a service process of the real-time tier when the runner keeps trained rigs
// (PALKIT_TEST_RIG_CACHE, a folder scripts/test-realtime.mjs makes for one run and deletes after it): the
// face trainer's process runs kept-rig-trainer.ts, which answers a step it has answered before in this run
// (the same media bytes, request and trainer sources) from that folder, and runs the real trainer otherwise.
// The service's training job runs as always (download, probe, thumbnails, both steps through the process).
import childProcess, { type ForkOptions } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';

const REAL = fileURLToPath(new URL('../../src/server/resources/faces/rig/trainer-entry.ts', import.meta.url));
const KEEPER = fileURLToPath(new URL('./kept-rig-trainer.ts', import.meta.url));
const folder = process.env.PALKIT_TEST_RIG_CACHE;
const original = childProcess.fork;

if (folder) {
  childProcess.fork = ((modulePath: string | URL, args?: readonly string[] | ForkOptions, options?: ForkOptions) =>
    String(modulePath) === REAL && Array.isArray(args)
      ? original(KEEPER, [folder, REAL, ...args], options)
      : original(modulePath, args as readonly string[], options)) as typeof childProcess.fork;
  syncBuiltinESMExports();
}
