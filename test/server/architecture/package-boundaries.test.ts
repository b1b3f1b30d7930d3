// The browser package and the wire schemas stay installable without the service: nothing under
// src/palkit or src/protocol may import a server-only module (a package only @palkit/server depends on, or
// a node: builtin) or a file under src/server, src/protocol imports nothing outside itself but zod, and the
// faces' drawing both sides share (src/face-drawing) imports only itself and the protocol.
// Read from the sources with the TypeScript parser: no build needed, so it fails fast in `npm test`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { importsOf, packageOf, shortPath, sourceFiles } from '../../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const folder = (name: string) => join(root, 'src', name);
type Manifest = { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
const manifest = (name: string) => JSON.parse(readFileSync(join(folder(name), 'package.json'), 'utf8')) as Manifest;
const names = (m: Manifest) => new Set([...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]);

/** What a browser-side file imports that it must not: server-only packages, node: builtins, src/server files, undeclared packages. */
function browserSideViolations(files: string[], allowed: Set<string>, serverOnly: Set<string>, serverDir: string): string[] {
  const problems: string[] = [];
  for (const file of files) {
    for (const edge of importsOf(file)) {
      const where = `${shortPath(root, file)} imports '${edge.specifier}'`;
      if (edge.file !== undefined) {
        if (edge.file.startsWith(serverDir)) problems.push(`${where}: a file of the service (src/server)`);
        continue;
      }
      if (edge.specifier.startsWith('.')) continue; // an unresolved relative import is tsc's to report
      const pkg = packageOf(edge.specifier);
      if (pkg.startsWith('node:')) problems.push(`${where}: a Node builtin, which a browser does not have`);
      else if (serverOnly.has(pkg)) problems.push(`${where}: a server-only package (@palkit/server's dependency)`);
      else if (!allowed.has(pkg)) problems.push(`${where}: not among the package's dependencies or peers`);
    }
  }
  return problems;
}

describe('package boundaries (browser package and protocol never reach the service)', () => {
  const server = names(manifest('server'));
  const palkit = names(manifest('palkit'));
  const protocol = names(manifest('protocol'));
  const serverOnly = new Set([...server].filter((name) => !palkit.has(name)));
  const serverDir = folder('server') + '/';

  it('the browser package declares nothing server-only', () => {
    for (const name of [
      'pg',
      '@electric-sql/pglite',
      'pdfjs-dist',
      'hono',
      'kysely',
      '@modelcontextprotocol/sdk',
      'ws',
      '@aws-sdk/client-s3',
    ]) {
      assert.ok(server.has(name), `@palkit/server depends on ${name}`);
      assert.ok(!palkit.has(name), `palkit must not depend on ${name}`);
    }
  });

  it('src/palkit imports only its own dependencies and peers, the protocol, and no server module', () => {
    const files = sourceFiles(folder('palkit'));
    assert.ok(files.length > 100, `found ${files.length} browser sources`);
    assert.deepEqual(browserSideViolations(files, palkit, serverOnly, serverDir), []);
  });

  it('src/protocol imports nothing outside itself but zod', () => {
    const files = sourceFiles(folder('protocol'));
    const problems = browserSideViolations(files, protocol, serverOnly, serverDir);
    for (const file of files) {
      for (const edge of importsOf(file)) {
        if (edge.file !== undefined && !edge.file.startsWith(folder('protocol') + '/'))
          problems.push(`${shortPath(root, file)} imports '${edge.specifier}': outside src/protocol`);
      }
    }
    assert.deepEqual([...protocol], ['zod']);
    assert.deepEqual(problems, []);
  });

  it('src/face-drawing imports only itself and the protocol', () => {
    const files = sourceFiles(folder('face-drawing'));
    assert.ok(files.length >= 5, `found ${files.length} drawing sources`);
    const problems: string[] = [];
    for (const file of files) {
      for (const edge of importsOf(file)) {
        const inside = [folder('face-drawing'), folder('protocol')].some((dir) => edge.file?.startsWith(dir + '/'));
        if (!inside) problems.push(`${shortPath(root, file)} imports '${edge.specifier}'`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('catches a browser file that imports the service, a server-only package or a builtin', () => {
    // A stand-in browser file that breaks every rule once (written apart, so tsc never sees it).
    const dir = mkdtempSync(join(tmpdir(), 'palkit-boundary-'));
    const probe = join(dir, 'probe.ts');
    const server = relative(dir, join(serverDir, 'platform/package-root.js')).split('\\').join('/');
    writeFileSync(
      probe,
      [
        "import type { Kysely } from 'kysely';",
        "import { readFileSync } from 'node:fs';",
        `import { packageRoot } from '${server}';`,
        "import { html } from 'lit';",
        "export const probe = async () => [html, readFileSync, packageRoot, await import('pg'), await import('left-pad'), null as unknown as Kysely<unknown>];",
      ].join('\n'),
    );
    let problems: string[];
    try {
      problems = browserSideViolations([probe], palkit, serverOnly, serverDir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems.join('\n'), /src\/server\)/);
    assert.match(problems.join('\n'), /'kysely': a server-only package/);
    assert.match(problems.join('\n'), /'pg': a server-only package/);
    assert.match(problems.join('\n'), /'node:fs': a Node builtin/);
    assert.match(problems.join('\n'), /'left-pad': not among/);
  });
});
