// The sub-folders of src/server/live in the order src/server/live/README.md draws them ("Its folders, top to
// bottom"): a folder imports only those after it, type-only and import() included, as layers.test.ts holds
// the layers. The crossings still present are listed in live-folders.allowed; a new one fails, and so does a
// listed one that has gone (strike it), so the list only shrinks.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { importsOf, shortPath, sourceFiles } from '../../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const live = join(root, 'src/server/live');
const allowList = fileURLToPath(new URL('./live-folders.allowed', import.meta.url));

/** The order the README draws, top first: `index.ts ─▶ runner ─▶ …` (index.ts is the module, above every folder). */
function statedOrder(readme: string): string[] {
  const line = readme.split('\n').find((l) => /^index\.ts\s*─▶/.test(l.trim()));
  assert.ok(line, 'src/server/live/README.md draws its folders as `index.ts ─▶ … ─▶ …`');
  return line.split('─▶').map((part) => part.trim());
}

/** The unit a file under `dir` belongs to: its first folder, or index.ts for a file at the top. */
function unitOf(dir: string, file: string): string {
  const path = shortPath(dir, file);
  return path.includes('/') ? path.split('/')[0]! : path;
}

/** Every import from a unit into one above it in `order`, as `from → to: file imports specifier` lines. */
function crossings(dir: string, order: string[]): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    const from = order.indexOf(unitOf(dir, file));
    for (const edge of importsOf(file)) {
      if (!edge.file || !edge.file.startsWith(dir + '/')) continue;
      const to = order.indexOf(unitOf(dir, edge.file));
      if (from >= 0 && to >= 0 && to < from) found.push(`${order[from]} → ${order[to]}: ${shortPath(dir, file)} imports ${edge.specifier}`);
    }
  }
  return found.sort();
}

const allowed = readFileSync(allowList, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

describe('the live folders, in the order live/README.md states', () => {
  const order = statedOrder(readFileSync(join(live, 'README.md'), 'utf8'));
  const found = crossings(live, order);

  it('places every folder of live/ in the order', () => {
    const folders = readdirSync(live).filter((entry) => statSync(join(live, entry)).isDirectory());
    assert.deepEqual(
      folders.filter((f) => !order.includes(f)),
      [],
      'a new folder: draw it in src/server/live/README.md',
    );
    assert.deepEqual(
      order.filter((f) => f !== 'index.ts' && !folders.includes(f)),
      [],
      'the README names a folder that is gone',
    );
  });

  it('has no import into a folder above beyond the allow-list', () => {
    const fresh = found.filter((line) => !allowed.includes(line));
    assert.deepEqual(
      fresh,
      [],
      `imports against live/README.md's order (move the code down, or hand it down as a callback):\n${fresh.join('\n')}`,
    );
  });

  it('lists no crossing that is gone', () => {
    const gone = allowed.filter((line) => !found.includes(line));
    assert.deepEqual(gone, [], 'these crossings are gone: strike them from test/server/architecture/live-folders.allowed');
  });

  it('catches an import upward, type-only and dynamic ones included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'palkit-live-folders-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('index.ts', "import { room } from './room/room.js';\nexport const live = room;\n");
      write('room/room.ts', "import { agent } from '../agent/agent.js';\nexport const room = agent;\n");
      write('agent/agent.ts', "import type { room } from '../room/room.js';\nexport const agent = 1 as unknown as typeof room;\n");
      write('engines/vad.ts', "export const later = () => import('../agent/agent.js');\nexport const own = () => import('./other.js');\n");
      const lines = crossings(dir, statedOrder('index.ts ─▶ room ─▶ agent ─▶ engines')).map((line) => line.split(':')[0]);
      assert.deepEqual(lines, ['agent → room', 'engines → agent']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
