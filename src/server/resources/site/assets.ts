// The built script-tag bundle (palkit's dist/cdn: palkit.js, palkit-full.js, chunks/), served from the service's
// origin so a customer page needs only `<script src="{PALKIT_PUBLIC_URL}/palkit.js">`; each script also as
// the brotli and gzip copies the build wrote beside it.
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { packageRoot, scriptTagDir } from '../../platform/package-root.js';
import { ENCODED_SUFFIX, type ContentEncoding } from './encoding.js';

/** The built script tag (src/palkit/dist/cdn in a checkout, the installed package's dist/cdn), whatever the cwd. */
export const cdnDir = scriptTagDir(packageRoot) + sep;

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css; charset=utf-8',
};

/** The file under dist/cdn, or undefined when it does not exist (or the path leaves the folder). */
export async function readAsset(relative: string, accept: readonly ContentEncoding[] = []): Promise<Asset | undefined> {
  const path = normalize(join(cdnDir, relative));
  if (!path.startsWith(cdnDir)) return undefined;
  const type = types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';
  // The copy the browser accepts, when the build wrote one (an older build has none: the file as built).
  if (type !== 'application/octet-stream') {
    for (const encoding of accept) {
      const bytes = await readBytes(path + ENCODED_SUFFIX[encoding]);
      if (bytes) return { bytes, type, encoding };
    }
  }
  const bytes = await readBytes(path);
  return bytes && { bytes, type, encoding: null };
}

export interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  /** The Content-Encoding of `bytes`; null: the file as built. */
  encoding: ContentEncoding | null;
}

async function readBytes(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    return undefined;
  }
}
