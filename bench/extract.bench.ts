// The HTML extractor on crafted pages of 1, 5 and 10 MB (test/helpers/crafted-html.ts): seconds per MB for
// each kind and size. Linear work keeps s/MB flat, so the 10 MB / 1 MB ratio of s/MB stays near 1; the
// quadratic extractor this replaced took 8.7 s for 80 KB of nested-unclosed markup.
import { extractHtml } from '../src/server/resources/documents/extract/html.js';
import { CRAFTED_KINDS, craftedHtml } from '../test/helpers/crafted-html.js';

const SIZES_MB = [1, 5, 10];

export default async function extractBench(): Promise<void> {
  // Warm up the JIT on a small page of each kind.
  for (const kind of CRAFTED_KINDS) extractHtml(craftedHtml(kind, 200_000), 'https://site.example/');
  console.log(`HTML extraction, seconds per MB (median of 3), Node ${process.version}`);
  console.log(`${'kind'.padEnd(22)}${SIZES_MB.map((mb) => `${mb} MB`.padStart(10)).join('')}   10MB/1MB`);
  for (const kind of CRAFTED_KINDS) {
    const perMb: number[] = [];
    for (const mb of SIZES_MB) {
      const html = craftedHtml(kind, mb * 1024 * 1024);
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        extractHtml(html, 'https://site.example/');
        runs.push((performance.now() - started) / 1000 / mb);
      }
      perMb.push(runs.sort((a, b) => a - b)[1]!);
    }
    console.log(`${kind.padEnd(22)}${perMb.map((s) => s.toFixed(3).padStart(10)).join('')}   ${(perMb[2]! / perMb[0]!).toFixed(2)}`);
  }
}
