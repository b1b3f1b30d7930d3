// Builds the demo site's framework pages: `--mode react` → dist/demo/react/, `--mode vue` → dist/demo/vue/
// (served by the demo under /demo/react/ and /demo/vue/). They import palkit like any app would, by
// package name: the aliases below point each public export of src/palkit/package.json at its built file in
// src/palkit/dist/, so the pages only reach what `exports` publishes (run after `npm run build:palkit`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Alias } from 'vite';

const packageDir = fileURLToPath(new URL('../src/palkit/', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../src/palkit/package.json', import.meta.url), 'utf8')) as {
  name: string;
  exports: Record<string, string | { import: string }>;
};

/** `palkit` and `palkit/<sub>` → the file the exports map names (ESM `import` condition). */
const exportAliases: Alias[] = Object.entries(pkg.exports).map(([subpath, target]) => {
  const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
  const file = typeof target === 'string' ? target : target.import;
  return {
    find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
    replacement: fileURLToPath(new URL(file, `file://${packageDir}`)),
  };
});

export default defineConfig(({ mode }) => {
  if (mode !== 'react' && mode !== 'vue') throw new Error('build with --mode react or --mode vue');
  return {
    root: fileURLToPath(new URL(`./${mode}/`, import.meta.url)),
    base: `/demo/${mode}/`,
    publicDir: false,
    resolve: { alias: exportAliases },
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    build: { outDir: fileURLToPath(new URL(`../dist/demo/${mode}/`, import.meta.url)), emptyOutDir: true, target: 'es2022' },
  };
});
