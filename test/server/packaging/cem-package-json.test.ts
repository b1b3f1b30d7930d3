// Generating the custom-elements manifest (as `npm run storybook` and `npm run build` do) leaves the tracked
// package.json files alone: the analyzer writes its output path into the cwd's package.json unless its
// config says `packagejson: false` (scripts/cem.config.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('custom-elements manifest generation', { timeout: 180_000 }, () => {
  it("the Storybook script's cem step writes its manifest and no package.json", () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const command = /cem analyze [^&]+/.exec(scripts.storybook!)?.[0];
    assert.ok(command, 'npm run storybook generates the manifest');
    const manifests = ['package.json', 'src/palkit/package.json'].map((file) => [file, readFileSync(join(root, file), 'utf8')] as const);
    const out = mkdtempSync(join(root, 'node_modules/.cache-cem-'));
    try {
      const args = command
        .trim()
        .split(/\s+/)
        .slice(1)
        .map((arg) => arg.replace(/^'(.*)'$/, '$1'));
      const outdir = args.indexOf('--outdir');
      args[outdir + 1] = relative(root, out);
      const result = spawnSync(
        process.execPath,
        [join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'), ...args, '--quiet'],
        { cwd: root, encoding: 'utf8' },
      );
      assert.equal(result.status, 0, result.stderr);
      const manifest = JSON.parse(readFileSync(join(out, 'custom-elements.json'), 'utf8')) as { modules: unknown[] };
      assert.ok(manifest.modules.length > 10);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    for (const [file, before] of manifests) assert.equal(readFileSync(join(root, file), 'utf8'), before, `${file} was rewritten`);
  });
});
