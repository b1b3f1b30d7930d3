// Real Chromium (Debian's /usr/bin/chromium) through playwright-core, with fake camera and microphone: the
// flags of the browser suite's Chromium (engines.mjs).
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH, chromiumArgs } from './engines.mjs';

/** `extraArgs` e.g. `--use-file-for-fake-audio-capture=<wav>`: the fake microphone plays that file. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...chromiumArgs, ...extraArgs],
  });
}
