// `npm run surface`: writes the files generated from custom-elements.json (the script tag's lists, the
// React components and JSX typings, the Vue typings; scripts/surface/render.ts) where they differ.
// `--check` writes nothing and fails when one is stale. The manifest is src/palkit/dist's (cem analyze
// writes it first), or the path given.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementsOf, readManifest } from './surface/manifest.js';
import { renderAll } from './surface/render.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const check = process.argv.includes('--check');
const manifestPath = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? join(root, 'src/palkit/dist/custom-elements.json');

const stale: string[] = [];
for (const [file, content] of renderAll(elementsOf(readManifest(manifestPath)))) {
  const path = join(root, file);
  if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
  stale.push(file);
  if (!check) writeFileSync(path, content);
}
if (check && stale.length) {
  console.error(`stale (run npm run surface): ${stale.join(', ')}`);
  process.exit(1);
}
console.log(stale.length ? `${check ? 'stale' : 'wrote'}: ${stale.join(', ')}` : 'generated files are up to date');
