// Loaded with `--import` into a service process under test (started with --expose-gc): every 200 ms it
// prints the event loop's longest gap in that window (perf_hooks monitorEventLoopDelay, 5 ms resolution)
// as `loop-gap <ms>` on stderr; on SIGUSR2 it collects garbage and prints `settled-rss <MB>`, the memory
// the process really holds (not garbage not yet collected). A window the loop was held through is
// printed when the loop runs again, with the whole hold in it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
setInterval(() => {
  process.stderr.write(`loop-gap ${(histogram.max / 1e6).toFixed(1)}\n`);
  histogram.reset();
}, 200).unref();

process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  // After the collection's freed pages are given back (a turn later).
  setTimeout(() => process.stderr.write(`settled-rss ${(process.memoryUsage.rss() / 1024 / 1024).toFixed(1)}\n`), 100);
});
