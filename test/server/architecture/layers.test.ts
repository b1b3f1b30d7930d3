// The service's layers point one way: app → live → resources → providers → platform → protocol. A file
// may import its own layer and the layers below it, never one above (type-only and import() included, as
// in import-cycles.test.ts): app wires everything and nothing imports it; providers know only platform
// and protocol; live reads the domain in resources, never the other way. No allow-list: a crossing fails.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { importsOf, shortPath, sourceFiles } from '../../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Lowest first. src/protocol is its own package, below the service. */
const LAYERS = ['protocol', 'platform', 'providers', 'resources', 'live', 'app'] as const;
type Layer = (typeof LAYERS)[number];

/** The layer of a path relative to the source root (`server/live/…`, `protocol/…`), or undefined outside them. */
function layerOf(path: string): Layer | undefined {
  const match = /^(?:server\/(platform|providers|resources|live|app)|(protocol))\//.exec(path);
  return (match?.[1] ?? match?.[2]) as Layer | undefined;
}

/** Every import of a file under `src/server` into a layer above its own, as `from → to` lines. */
function crossings(srcRoot: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(srcRoot, 'server'))) {
    const from = layerOf(shortPath(srcRoot, file));
    for (const edge of importsOf(file)) {
      if (!edge.file) continue;
      const to = layerOf(shortPath(srcRoot, edge.file));
      if (from && to && LAYERS.indexOf(to) > LAYERS.indexOf(from))
        found.push(`${from} → ${to}: ${shortPath(root, file)} imports ${edge.specifier}`);
    }
  }
  return found;
}

/** Every service file sits in one layer (a new top-level folder must be placed in the order first). */
function unplaced(srcRoot: string): string[] {
  return sourceFiles(join(srcRoot, 'server'))
    .map((file) => shortPath(srcRoot, file))
    .filter((path) => !layerOf(path) && !/^server\/[^/]+\.ts$/.test(path));
}

describe('layers (app → live → resources → providers → platform → protocol)', () => {
  const src = join(root, 'src');

  it('reads every layer', () => {
    const counts = new Map<string, number>();
    for (const file of sourceFiles(join(src, 'server'))) {
      const layer = layerOf(shortPath(src, file));
      if (layer) counts.set(layer, (counts.get(layer) ?? 0) + 1);
    }
    for (const layer of LAYERS.slice(1)) assert.ok((counts.get(layer) ?? 0) > 5, `${layer}: ${counts.get(layer) ?? 0} files`);
  });

  it('places every service file in a layer', () => {
    assert.deepEqual(unplaced(src), []);
  });

  it('has no import into a layer above', () => {
    const found = crossings(src);
    assert.deepEqual(
      found,
      [],
      `imports against the layers (move the code down, or hand it down from app as a callback):\n${found.join('\n')}`,
    );
  });

  it('catches an import upward, type-only and dynamic ones included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'palkit-layers-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('protocol/wire.ts', 'export const wire = 1;\n');
      write('server/app/service.ts', 'export const service = 1;\n');
      write('server/live/room.ts', "import { service } from '../app/service.js';\nexport const room = service;\n");
      write('server/resources/pal.ts', "import type { room } from '../live/room.js';\nexport type Pal = typeof room;\n");
      write('server/providers/daily.ts', "export const later = () => import('../resources/pal.js');\n");
      write('server/platform/log.ts', "import { wire } from '../../protocol/wire.js';\nexport const log = wire;\n");
      write('server/platform/clock.ts', "import { later } from '../providers/daily.js';\nexport const clock = later;\n");
      write('server/odd/thing.ts', 'export const odd = 1;\n');
      const found = crossings(dir).map((line) => line.split(':')[0]);
      assert.deepEqual(found.sort(), ['live → app', 'platform → providers', 'providers → resources', 'resources → live']);
      assert.deepEqual(unplaced(dir), ['server/odd/thing.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
