// Runs the benchmarks: every bench/*.bench.ts, or those named by the arguments
// (`npm run bench -- start` runs start.bench.ts, not restart.bench.ts). A bench file default-exports `async function (): Promise<void>` and prints its figures.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f === `${x}.bench.ts`))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}`);
  process.exit(1);
}
for (const file of files) {
  console.log(`\n== ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
