// A benchmark's page script, bundled as a site would ship it: minified, with production Lit (no dev-mode checks).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The bundled text of the page module at `url` (e.g. `new URL('./transcript-page.ts', import.meta.url)`). */
export async function bundlePage(url: URL): Promise<string> {
  const bundle = await build({
    entryPoints: [fileURLToPath(url)],
    bundle: true,
    format: 'esm',
    write: false,
    minify: true,
    target: 'es2022',
    tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    conditions: ['browser', 'production'],
  });
  return bundle.outputFiles[0]!.text;
}
