// The builds from one config, picked by --mode:
//   (default) npm  — ES modules per source file under dist/, dependencies external, types by tsc.
//   cdn-full       — dist/cdn/palkit-full.js + chunks: everything bundled; the call's parts, each canvas card
//                    kind, each language and daily-js in chunks of their own, fetched when needed.
//   cdn            — dist/cdn/palkit.js: the classic script with the light shells (IIFE, tiny).
//   server         — dist/server/cli.js: the companion service for plain `node` (the `palkit` command);
//                    src/server and src/protocol bundled, every package left to `dependencies`.
//   demo-service   — dist/demo-service/start.js: `npm start`'s process (demo/start.ts), bundled the same
//                    way, so a restart loads one file instead of compiling hundreds through tsx.
import { isAbsolute } from 'node:path';
import { defineConfig } from 'vite';
import { minifyCssLiterals } from './scripts/minify-css-literals.js';
import { MICROPHONE_WORKLET, MICROPHONE_WORKLET_FILE } from './src/palkit/client/transport/microphone-worklet.js';

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

export default defineConfig(({ mode }) => {
  if (mode === 'cdn') {
    return {
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: 'src/palkit/cdn.ts', formats: ['iife'], name: 'palkit', fileName: () => 'palkit.js' },
        rolldownOptions: { output: { minify: true } },
      },
      // The microphone worklet as a file of its own, served beside palkit.js (strict-CSP pages refuse blob: scripts).
      plugins: [{ name: 'palkit-microphone-worklet', generateBundle() { this.emitFile({ type: 'asset', fileName: MICROPHONE_WORKLET_FILE, source: MICROPHONE_WORKLET }); } }],
    };
  }
  if (mode === 'server' || mode === 'demo-service') {
    const server = mode === 'server';
    return {
      build: {
        ssr: true,
        outDir: server ? 'dist/server' : 'dist/demo-service',
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        rolldownOptions: {
          // The extraction worker is an entry of its own: it runs on a thread apart (see documents/extract/off-thread.ts).
          input: (server ? { cli: 'src/server/app/cli.ts', 'extract-worker': 'src/server/resources/documents/extract/worker-entry.ts' } : { start: 'demo/start.ts' }) as Record<string, string>,
          // Bare specifiers (packages, node: builtins) load from node_modules at run time.
          external: (id: string) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
          output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', ...(server ? { banner: '#!/usr/bin/env node' } : {}) },
        },
      },
    };
  }
  if (mode === 'cdn-full') {
    return {
      plugins: [minifyCssLiterals()],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: 'src/palkit/cdn-full.ts', formats: ['es'], fileName: () => 'palkit-full.js' },
        rolldownOptions: { preserveEntrySignatures: 'allow-extension', output: { chunkFileNames: chunkName, minify: true } },
      },
    };
  }
  return {
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      lib: {
        entry: { 'palkit/index': 'src/palkit/index.ts', 'palkit/components/define': 'src/palkit/components/define.ts', 'palkit/react/index': 'src/palkit/react/index.ts', 'palkit/vue/index': 'src/palkit/vue/index.ts' },
        formats: ['es'],
      },
      rolldownOptions: {
        external: (id: string) => /^(lit|@lit\/|zod|@daily-co\/)/.test(id) || /^(react|react-dom|vue)(\/|$)/.test(id),
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      },
    },
  };
});
