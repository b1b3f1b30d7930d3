// A vite plugin for the script-tag bundles: writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9)
// copy beside every script and style the build writes, once at build time, so the service sends the copy
// the browser accepts (src/server/resources/site/encoding.ts) without compressing on each request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: what a browser fetches as text. */
const COMPRESSIBLE = /\.(js|css)$/;

export function compressed(bytes: Uint8Array): { br: Buffer; gz: Buffer } {
  return {
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gz: gzipSync(bytes, { level: 9 }),
  };
}

export function precompress(): Plugin {
  return {
    name: 'palkit:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const bytes =
          output.type === 'chunk'
            ? Buffer.from(output.code)
            : typeof output.source === 'string'
              ? Buffer.from(output.source)
              : output.source;
        const { br, gz } = compressed(bytes);
        writeFileSync(join(dir, `${fileName}.br`), br);
        writeFileSync(join(dir, `${fileName}.gz`), gz);
      }
    },
  };
}
