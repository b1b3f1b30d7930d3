// Real Chromium (Debian's /usr/bin/chromium) through playwright-core, with fake camera and microphone.
import { chromium, type Browser } from 'playwright-core';

export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: chromiumArgs });
}
