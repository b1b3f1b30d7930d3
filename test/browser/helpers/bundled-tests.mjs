// Web-test-runner plugin: each test file's page loads a few esbuild-made modules instead of the ~300 of its
// import graph. Every browser test file is built in one esbuild run with code splitting, so the code files
// share (lit, zod, daily-js, the elements) lands in the same chunks for every page, and the browser keeps
// them in its cache from page to page. A test file's own code stays at its own URL, so its import.meta.url
// and its stack traces (through the linked source maps) are the file's.
// Not in watch mode: web-test-runner learns which files to run again from the modules it served one by one.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { DEPS_DEFINE } from './bundled-deps.mjs';

const CHUNKS = '__palkit-chunks';

/** The test files under these folders, as absolute paths. */
function testFiles(folders) {
  return folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(resolve(folder), f)),
  );
}

/** Built modules by URL path: the test files' at their own paths, the chunks and the source maps beside them. */
async function buildAll(folders, tsconfig) {
  const root = process.cwd();
  const result = await build({
    entryPoints: testFiles(folders),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['browser', 'development'],
    tsconfig,
    write: false,
    outdir: root,
    outbase: root,
    entryNames: '[dir]/[name]',
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    // .mjs, not .js: outputs keep a name no other plugin transforms.
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    // The test runner's own modules (its web socket) are served by it at these paths.
    external: ['/__*'],
    define: DEPS_DEFINE,
    logLevel: 'silent',
  });
  const modules = new Map();
  for (const file of result.outputFiles) modules.set(`/${relative(root, file.path).split('\\').join('/')}`, file.text);
  return modules;
}

// The gate's browser files and the real-time tier's (which web-test-runner runs with this config too).
export function bundledTests({ folders = ['test/browser', 'test/realtime/browser'], tsconfig = './tsconfig.json' } = {}) {
  let built;
  return {
    name: 'palkit-bundled-tests',
    async serve(context) {
      const path = context.path;
      const isTest = folders.some((folder) => path.startsWith(`/${folder}/`)) && path.endsWith('.test.ts');
      if (!isTest && !path.startsWith(`/${CHUNKS}/`) && !path.endsWith('.mjs.map')) return undefined;
      built ??= buildAll(folders, tsconfig).catch((error) => error);
      const modules = await built;
      if (modules instanceof Error) {
        // A test file that does not compile: every page says so, with esbuild's own words.
        const text = (modules.errors ?? []).map((e) => `${e.location?.file}:${e.location?.line}: ${e.text}`).join('\n');
        return isTest
          ? { body: `throw new Error(${JSON.stringify(`the browser tests did not build:\n${text || modules.message}`)});`, type: 'js' }
          : undefined;
      }
      const body = modules.get(isTest ? path.replace(/\.ts$/, '.mjs') : path);
      if (body === undefined) return undefined;
      return { body, type: path.endsWith('.map') ? 'json' : 'js' };
    },
  };
}
