// The built script-tag bundle (palkit's dist/cdn: palkit.js, palkit-full.js, chunks/), served from the service's
// origin so a customer page needs only `<script src="{PALKIT_PUBLIC_URL}/palkit.js">`.
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { packageRoot, scriptTagDir } from '../../platform/package-root.js';

/** The built script tag (src/palkit/dist/cdn in a checkout, the installed package's dist/cdn), whatever the cwd. */
export const cdnDir = scriptTagDir(packageRoot) + sep;

const types: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.map': 'application/json', '.css': 'text/css; charset=utf-8' };

/** The file under dist/cdn, or undefined when it does not exist (or the path leaves the folder). */
export async function readAsset(relative: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | undefined> {
  const path = normalize(join(cdnDir, relative));
  if (!path.startsWith(cdnDir)) return undefined;
  try {
    const bytes = new Uint8Array(await readFile(path));
    return { bytes, type: types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
