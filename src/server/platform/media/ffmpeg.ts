// Which ffmpeg the service runs (face thumbnails and probes, speech encoding, talking-face videos).
// By default the static build shipped for this platform inside a registry package: @ffmpeg-installer/ffmpeg
// lists one optional package per os-cpu (@ffmpeg-installer/linux-x64, darwin-arm64, win32-x64, …), npm installs
// only the one that fits, and nothing is downloaded at install time. PALKIT_FFMPEG overrides it: a path to
// another build, or a bare name looked up on PATH (`PALKIT_FFMPEG=ffmpeg` runs the system's).
import { chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import { findTool, isExecutable } from './find-tool.js';

export type FfmpegLookup = { path: string; source: 'PALKIT_FFMPEG' | 'bundled' } | { missing: string };

const require = createRequire(import.meta.url);
const looked = new Map<string, FfmpegLookup>();

/** The ffmpeg to run: the override when set, else the bundled build; `missing` says why there is none. */
export function locateFfmpeg(override: string | undefined): FfmpegLookup {
  const key = override ?? '';
  let found = looked.get(key);
  if (!found) looked.set(key, (found = override ? fromOverride(override) : bundled()));
  return found;
}

function fromOverride(value: string): FfmpegLookup {
  // A bare name is looked up like a shell would; anything with a separator is a file (relative to the cwd).
  const bare = !isAbsolute(value) && !/[\\/]/.test(value);
  const path = bare ? findTool(value, process.env.PATH ?? '') : value;
  if (path && isExecutable(path)) return { path, source: 'PALKIT_FFMPEG' };
  return { missing: bare ? `PALKIT_FFMPEG=${value} was not found on PATH` : `PALKIT_FFMPEG=${value} is not an executable file` };
}

function bundled(): FfmpegLookup {
  const platform = `${process.platform}-${process.arch}`;
  let path: string;
  try {
    // Throws (a string) when this platform has no build or its optional package was not installed.
    path = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return {
      missing: `no bundled build for ${platform} (its optional package @ffmpeg-installer/${platform} is not installed); set PALKIT_FFMPEG to an ffmpeg program`,
    };
  }
  if (!isExecutable(path)) {
    // The package sets the mode in a postinstall script, which installs run with --ignore-scripts (or an
    // npm that asks before running scripts) skip: do what it would have done.
    try {
      chmodSync(path, statSync(path).mode | 0o100);
    } catch {
      /* reported below */
    }
    if (!isExecutable(path)) return { missing: `the bundled build at ${path} is not executable (chmod u+x it, or set PALKIT_FFMPEG)` };
  }
  return { path, source: 'bundled' };
}
