// The builds from one config, picked by --mode. Each package's outputs go to its own dist/, and no build
// empties a folder another build writes into (types, custom-elements.json and the script tag share
// src/palkit/dist with the modules):
//   (default) npm  — src/palkit/dist/{palkit,protocol,face-drawing}/: ES modules per source file, dependencies external,
//                    types by tsc (tsconfig.build.json), custom-elements.json by cem.
//   cdn-full       — src/palkit/dist/cdn/palkit-full.js + chunks: everything bundled; the call's parts, each
//                    canvas card kind, each language and daily-js in chunks of their own, fetched when needed.
//   cdn            — src/palkit/dist/cdn/palkit.js: the classic script with the light shells (IIFE, tiny).
//                    Both script-tag builds write a brotli and a gzip copy beside each script (.br, .gz).
//   server         — src/server/dist/cli.js: the companion service for plain `node` (the `palkit` command of
//                    @palkit/server); src/server, src/protocol and src/face-drawing bundled, every package left to its
//                    `dependencies`. It carries the voice's worker (espeak-worker.js), the face trainer
//                    (face-trainer.js), the video renderer (video-renderer.js), the Daily runner (daily-runner.js) and its
//                    page's script (daily-runner-page.js), the opt-in native voice bridge's C source and a copy of the built
//                    script tag.
//   demo-service   — dist/demo-service/start.js: `npm start`'s process (demo/start.ts), bundled the same
//                    way, so a restart loads one file instead of compiling hundreds through tsx.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { minifyCssLiterals } from './scripts/minify-css-literals.js';
import { precompress } from './scripts/precompress.js';
import { squeezeIndentation } from './scripts/squeeze-indentation.js';
import { MICROPHONE_WORKLET, MICROPHONE_WORKLET_FILE } from './src/palkit/client/transport/microphone-worklet.js';
import { bundleRunnerPage, RUNNER_PAGE_FILE } from './src/server/live/runner/page-script.js';

/**
 * Chunks of the script-tag bundle: `call` (the call's parts), `transports`, a canvas card kind's
 * `card-<kind>`, a language's `lang-<code>`.
 */
function chunkName(chunk: { facadeModuleId: string | null }): string {
  const id = chunk.facadeModuleId ?? '';
  if (id.endsWith('/components/define-call.ts')) return 'chunks/call-[hash].js';
  if (id.endsWith('/client/transport/select.ts')) return 'chunks/transports-[hash].js';
  if (/\/components\/canvas\/cards\/[\w-]+\.ts$/.test(id)) return 'chunks/card-[name]-[hash].js';
  if (/\/components\/i18n\/locales\/[\w-]+\.ts$/.test(id)) return 'chunks/lang-[name]-[hash].js';
  return 'chunks/[name]-[hash].js';
}

export const PALKIT_DIST = 'src/palkit/dist';
export const SERVER_DIST = 'src/server/dist';

/**
 * Files the compiled service needs beside it, copied after its bundle is written (so emptying its outDir
 * never loses them): the native voice bridge's C source, compiled on first use when PALKIT_LOCAL_VOICE=native, the Daily runner's
 * page script, and the built script tag it serves from an installed package (a checkout serves src/palkit/dist/cdn directly).
 */
function serverCompanions(): Plugin {
  return {
    name: 'palkit-server-companions',
    apply: 'build',
    async closeBundle() {
      mkdirSync(SERVER_DIST, { recursive: true });
      cpSync('src/server/providers/voice/espeak/palkit-espeak.c', `${SERVER_DIST}/palkit-espeak.c`);
      // palkit's Daily runner opens its page with this script (daily-js inside), so an installed service needs no bundler.
      writeFileSync(`${SERVER_DIST}/${RUNNER_PAGE_FILE}`, await bundleRunnerPage());
      if (existsSync(`${PALKIT_DIST}/cdn/palkit.js`)) cpSync(`${PALKIT_DIST}/cdn`, `${SERVER_DIST}/cdn`, { recursive: true });
      else this.warn(`${PALKIT_DIST}/cdn is not built: ${SERVER_DIST} carries no script tag (run npm run build:cdn first)`);
    },
  };
}

/** What the service reports as its version (platform/version.ts): the package's, and the commit built. */
function buildStamp(): { version: string; commit: string | null } {
  const { version } = JSON.parse(readFileSync('src/server/package.json', 'utf8')) as { version: string };
  let commit: string | null = null;
  try {
    commit =
      execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    // Built outside a git checkout (a source tarball): the version alone.
  }
  return { version, commit };
}

/** The files under `dir` whose names match `own`, recursively. */
function filesUnder(dir: string, own: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path, own) : own.test(entry.name) ? [path] : [];
  });
}

/**
 * Removes, before a build writes, only the files that build made last time (matched by name under its
 * folders), so renamed or re-hashed outputs do not pile up and the other builds' files in the same dist/
 * (types, custom-elements.json, the other script tag) stay.
 */
function cleanOwnOutputs(dirs: string[], own: RegExp): Plugin {
  return {
    name: 'palkit-clean-own-outputs',
    apply: 'build',
    buildStart() {
      for (const dir of dirs) for (const file of filesUnder(dir, own)) rmSync(file);
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'cdn') {
    return {
      build: {
        outDir: `${PALKIT_DIST}/cdn`,
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: 'src/palkit/cdn.ts', formats: ['iife'], name: 'palkit', fileName: () => 'palkit.js' },
        rolldownOptions: { output: { minify: true } },
      },
      // The microphone worklet as a file of its own, served beside palkit.js (strict-CSP pages refuse blob: scripts).
      plugins: [
        {
          name: 'palkit-microphone-worklet',
          generateBundle() {
            this.emitFile({ type: 'asset', fileName: MICROPHONE_WORKLET_FILE, source: MICROPHONE_WORKLET });
          },
        },
        precompress(),
      ],
    };
  }
  if (mode === 'server' || mode === 'demo-service') {
    const server = mode === 'server';
    return {
      plugins: server ? [serverCompanions()] : [],
      define: { __PALKIT_BUILD__: JSON.stringify(buildStamp()) },
      build: {
        ssr: true,
        outDir: server ? SERVER_DIST : 'dist/demo-service',
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        rolldownOptions: {
          // The extraction worker, the local voice's worker and the face trainer are entries of their own: each
          // runs apart (see documents/extract/off-thread.ts, providers/voice/espeak/wasm-speaker.ts
          // and resources/faces/rig/trainer-process.ts).
          input: (server
            ? {
                cli: 'src/server/app/cli.ts',
                'extract-worker': 'src/server/resources/documents/extract/worker-entry.ts',
                'espeak-worker': 'src/server/providers/voice/espeak/wasm-worker.ts',
                'face-trainer': 'src/server/resources/faces/rig/trainer-entry.ts',
                'video-renderer': 'src/server/resources/videos/render/rig-render-entry.ts',
                'daily-runner': 'src/server/live/runner/page-entry.ts',
              }
            : { start: 'demo/start.ts' }) as Record<string, string>,
          // Bare specifiers (packages, node: builtins) load from node_modules at run time.
          external: (id: string) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
          output: {
            format: 'es',
            entryFileNames: '[name].js',
            chunkFileNames: 'chunks/[name]-[hash].js',
            ...(server ? { banner: '#!/usr/bin/env node' } : {}),
          },
        },
      },
    };
  }
  if (mode === 'cdn-full') {
    return {
      // Each script with its precompressed copies (.br, .gz), which the service sends by Accept-Encoding.
      plugins: [
        minifyCssLiterals(),
        squeezeIndentation(),
        cleanOwnOutputs([`${PALKIT_DIST}/cdn/chunks`], /\.js(\.br|\.gz)?$/),
        cleanOwnOutputs([`${PALKIT_DIST}/cdn`], /^palkit-full\.js(\.br|\.gz)?$/),
        precompress(),
      ],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: `${PALKIT_DIST}/cdn`,
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: 'src/palkit/cdn-full.ts', formats: ['es'], fileName: () => 'palkit-full.js' },
        rolldownOptions: { preserveEntrySignatures: 'allow-extension', output: { chunkFileNames: chunkName, minify: true } },
      },
    };
  }
  return {
    plugins: [cleanOwnOutputs([`${PALKIT_DIST}/palkit`, `${PALKIT_DIST}/protocol`, `${PALKIT_DIST}/face-drawing`], /\.js$/)],
    build: {
      outDir: PALKIT_DIST,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: {
        entry: {
          'palkit/index': 'src/palkit/index.ts',
          'palkit/components/define': 'src/palkit/components/define.ts',
          'palkit/react/index': 'src/palkit/react/index.ts',
          'palkit/vue/index': 'src/palkit/vue/index.ts',
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: (id: string) => /^(lit|@lit\/|zod|@daily-co\/)/.test(id) || /^(react|react-dom|vue)(\/|$)/.test(id),
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      },
    },
  };
});
