// The browser package as a React or Vue developer gets it: `npm pack --workspaces` after `npm run build`, the
// `palkit` tarball installed alone into an empty app. It must stay small (≤ 30 packages, ≤ 40 MB on disk)
// and bring nothing that runs only on a server; its `types` and `customElements` point at shipped files;
// the README's React and Vue examples build and type-check against it. And the builds that share a dist/
// leave each other's files alone (the incremental build once deleted the types and custom-elements.json).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  folderBytes,
  installInto,
  installedPackages,
  npx,
  packWorkspaces,
  privateCheckout,
  repoRoot,
  run,
} from '../../../scripts/packing.js';

const MAX_PACKAGES = 30;
const MAX_BYTES = 40 * 1024 * 1024;
/** Packages (or scopes) that only the service needs. */
const SERVER_ONLY = [
  /^pg(-.*)?$/,
  /^@electric-sql\//,
  /^@aws-sdk\//,
  /^@smithy\//,
  /^@azure\//,
  /^@google-cloud\//,
  /^pdfjs-dist$/,
  /^hono$/,
  /^@hono\//,
  /^kysely$/,
  /^@modelcontextprotocol\//,
  /^ws$/,
  /^prom-client$/,
  /^mammoth$/,
  /^@palkit\/server$/,
];

/** The first fenced block of `lang` after `heading` in the README. */
function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const from = readme.indexOf(heading);
  assert.ok(from >= 0, `README has "${heading}"`);
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  assert.ok(match, `README has a ${lang} block under "${heading}"`);
  return match[1]!;
}

describe('the palkit tarball, installed alone into an empty app', { timeout: 600_000 }, () => {
  let work: string;
  let app: string;
  let tarballs: Map<string, string>;
  let packages: string[];
  let bytes: number;

  before(() => {
    for (const built of [
      'src/palkit/dist/palkit/index.js',
      'src/palkit/dist/palkit/index.d.ts',
      'src/palkit/dist/custom-elements.json',
      'src/palkit/dist/cdn/palkit.js',
      'src/server/dist/cli.js',
    ]) {
      assert.ok(existsSync(join(repoRoot, built)), `${built} is missing: run \`npm run build\` before the e2e tests`);
    }
    work = mkdtempSync(join(tmpdir(), 'palkit-packages-'));
    tarballs = packWorkspaces(work);
    app = join(work, 'app');
    installInto(app, [tarballs.get('palkit')!]);
    packages = installedPackages(app);
    bytes = folderBytes(join(app, 'node_modules'));
    console.log(`palkit installed alone: ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs the three workspaces', () => {
    assert.deepEqual([...tarballs.keys()].sort(), ['@palkit/protocol', '@palkit/server', 'palkit']);
  });

  it(`is at most ${MAX_PACKAGES} packages and ${MAX_BYTES / 1024 / 1024} MB, none of them server-only`, () => {
    assert.ok(packages.includes('palkit') && packages.includes('lit') && packages.includes('zod'), packages.join(', '));
    assert.ok(packages.length <= MAX_PACKAGES, `${packages.length} packages: ${packages.join(', ')}`);
    assert.ok(bytes <= MAX_BYTES, `${(bytes / 1024 / 1024).toFixed(1)} MB`);
    const serverOnly = packages.filter((name) => SERVER_ONLY.some((pattern) => pattern.test(name)));
    assert.deepEqual(serverOnly, []);
  });

  it('ships what its manifest points at, the script tag and no sources', () => {
    const pkg = join(app, 'node_modules/palkit');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      types: string;
      customElements: string;
      exports: Record<string, string | { types: string; import: string }>;
    };
    for (const file of [manifest.types, manifest.customElements, 'dist/cdn/palkit.js', 'dist/cdn/palkit-full.js'])
      assert.ok(existsSync(join(pkg, file)), `${file} is in the package`);
    for (const target of Object.values(manifest.exports)) {
      for (const file of typeof target === 'string' ? [target] : [target.types, target.import])
        assert.ok(existsSync(join(pkg, file)), `exports → ${file}`);
    }
    const elements = JSON.parse(readFileSync(join(pkg, manifest.customElements), 'utf8')) as { modules: unknown[] };
    assert.ok(elements.modules.length > 10);
    assert.ok(!existsSync(join(pkg, 'src')) && !existsSync(join(pkg, 'index.ts')), 'no TypeScript sources');
  });

  describe("the README's examples, against the installed package", () => {
    before(() => {
      // The frameworks themselves, at the versions this repository tests with (from the local npm cache).
      const dev = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
        .devDependencies;
      installInto(
        app,
        ['react', 'react-dom', 'vue', '@types/react', '@types/react-dom'].map((name) => `${name}@${dev[name]}`),
      );
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            jsx: 'react-jsx',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            types: [],
          },
          include: ['*.ts', '*.tsx', '*.vue'],
        }),
      );
    });

    it('React: the example type-checks and builds with vite', () => {
      writeFileSync(join(app, 'support.tsx'), readmeBlock('**React**', 'tsx'));
      writeFileSync(
        join(app, 'main.tsx'),
        "import { createRoot } from 'react-dom/client';\nimport { Support } from './support.js';\ncreateRoot(document.getElementById('root')!).render(<Support />);\n",
      );
      writeFileSync(
        join(app, 'index.html'),
        '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
      );
      const checked = run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
      assert.equal(checked.status, 0, `tsc:\n${checked.stdout}${checked.stderr}`);
      const built = run(
        process.execPath,
        [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', 'out-react'],
        app,
      );
      assert.equal(built.status, 0, `vite build:\n${built.stdout}${built.stderr}`);
      const js = run('sh', ['-c', 'cat out-react/assets/*.js'], app).stdout;
      assert.match(js, /pal-embed/);
    });

    it('Vue: the component and the config snippet type-check with vue-tsc', () => {
      writeFileSync(join(app, 'Support.vue'), readmeBlock('**Vue**', 'vue'));
      const config = readmeBlock('**Vue**', 'ts');
      const imported = /import \{ isPalElement \} from 'palkit\/vue';/.exec(config);
      assert.ok(imported, 'the config snippet imports isPalElement from palkit/vue');
      writeFileSync(
        join(app, 'compiler-options.ts'),
        `${imported[0]}\nexport const isCustomElement: (tag: string) => boolean = isPalElement;\nif (!isCustomElement('pal-embed') || isCustomElement('div')) throw new Error('isPalElement');\n`,
      );
      const checked = run(process.execPath, [join(repoRoot, 'node_modules/vue-tsc/bin/vue-tsc.js'), '-p', 'tsconfig.json'], app);
      assert.equal(checked.status, 0, `vue-tsc:\n${checked.stdout}${checked.stderr}`);
    });
  });
});

describe('builds that share a dist/ leave each other alone', { timeout: 300_000 }, () => {
  it('the module build and the service build (npm start runs them alone) keep the types, custom-elements.json, the script tag and the voice bridge', () => {
    const kept = [
      'src/palkit/dist/palkit/index.d.ts',
      'src/palkit/dist/custom-elements.json',
      'src/palkit/dist/cdn/palkit.js',
      'src/palkit/dist/cdn/palkit-full.js',
      'src/server/dist/palkit-espeak.c',
      'src/server/dist/cdn/palkit.js',
    ];
    for (const file of kept) assert.ok(existsSync(join(repoRoot, file)), `${file} is there after npm run build`);
    // Rebuilt in a private copy of the built checkout: the other end-to-end files read this one's meanwhile.
    const work = mkdtempSync(join(tmpdir(), 'palkit-rebuilds-'));
    try {
      const checkout = privateCheckout(work, { built: true });
      for (const args of [
        ['vite', 'build', '--logLevel', 'error'],
        ['vite', 'build', '--mode', 'server', '--logLevel', 'error'],
      ]) {
        const built = run(npx, ['--no-install', ...args], checkout);
        assert.equal(built.status, 0, built.stderr);
      }
      for (const file of kept) assert.ok(existsSync(join(checkout, file)), `${file} survived the module and service builds`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
