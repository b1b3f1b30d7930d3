// Real Chromium (Debian's /usr/bin/chromium) through playwright-core, with fake camera and microphone.
import { chromium, type Browser } from 'playwright-core';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

/** `extraArgs` e.g. `--use-file-for-fake-audio-capture=<wav>`: the fake microphone plays that file. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...chromiumArgs, ...extraArgs],
  });
}
