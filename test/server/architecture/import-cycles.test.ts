// No import cycles in the product's sources (src/ and the demo): every import counts, type-only and
// import() included, since a cycle is a knot in the layout either way. The few still present are listed
// in import-cycles.allowed; a new one fails, and so does a listed one that has gone (strike it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { importCycles, importGraph, shortPath } from '../../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const allowList = fileURLToPath(new URL('./import-cycles.allowed', import.meta.url));

const allowed = new Set(
  readFileSync(allowList, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

describe('import cycles', () => {
  const graph = new Map([...importGraph(join(root, 'src')), ...importGraph(join(root, 'demo'))]);
  const found = importCycles(graph).map((cycle) => cycle.map((file) => shortPath(root, file)).join(' → '));

  it('reads the whole source tree', () => {
    assert.ok(graph.size > 350, `${graph.size} files`);
  });

  it('has no cycle beyond the allow-list', () => {
    const fresh = found.filter((cycle) => !allowed.has(cycle));
    assert.deepEqual(fresh, [], `new import cycles (break them; see test/server/architecture/import-cycles.allowed):\n${fresh.join('\n')}`);
  });

  it('lists no cycle that is gone', () => {
    const gone = [...allowed].filter((cycle) => !found.includes(cycle));
    assert.deepEqual(gone, [], `these cycles are gone: strike them from test/server/architecture/import-cycles.allowed`);
  });

  it('finds a cycle, each once, however it is entered', () => {
    const a = '/x/a.ts',
      b = '/x/b.ts',
      c = '/x/c.ts',
      d = '/x/d.ts';
    const cycles = importCycles(
      new Map([
        [a, [b]],
        [b, [c, a]],
        [c, [a]],
        [d, [a]],
      ]),
    );
    assert.deepEqual(cycles, [
      [a, b, c],
      [a, b],
    ]);
    assert.deepEqual(
      importCycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, []],
        ]),
      ),
      [],
    );
  });
});
