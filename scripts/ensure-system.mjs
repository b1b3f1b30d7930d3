// Installs the system programs palkit uses when they are missing: espeak-ng (the PAL's voice, speech
// rendering) and libespeak-ng's headers (the voice's word timing) for
// `npm start`; for the tests (`npm test`) the three browser engines too: Debian's Chromium, Firefox ESR
// (with PulseAudio, so that headless Firefox has an audio output), and WebKitGTK's WebKitWebDriver and
// MiniBrowser (webkit2gtk-driver) with Xvfb to show it, and openssl for its stand-in proxy's certificate. As root with apt-get it installs them;
// otherwise it says what to install and what needs them will fail or fall back. ffmpeg is not among them: the
// service and the tests run the build @palkit/server installs from npm (@ffmpeg-installer/<os>-<arch>).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const forStart = process.argv[2] === 'start';
const needed = [
  ...(forStart ? [] : [
    ['chromium', '/usr/bin/chromium'],
    ['firefox-esr', '/usr/bin/firefox-esr'],
    ['webkit2gtk-driver', '/usr/bin/WebKitWebDriver'],
    ['xvfb', '/usr/bin/Xvfb'],
    ['pulseaudio', '/usr/bin/pulseaudio'],
    ['pulseaudio-utils', '/usr/bin/pactl'],
    ['openssl', '/usr/bin/openssl'],
  ]),
  ['espeak-ng', '/usr/bin/espeak-ng'],
  // The local voice's bridge to libespeak-ng (exact word and phoneme timing) is compiled against it.
  ['libespeak-ng-dev', '/usr/include/espeak-ng/speak_lib.h'],
].filter(([, path]) => !existsSync(path)).map(([pkg]) => pkg);

if (needed.length > 0 && !process.env.PALKIT_CHROMIUM) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log(`palkit: installing ${needed.join(', ')} with apt-get…`);
    execSync('apt-get update -qq', { stdio: 'inherit' });
    execSync(`apt-get install -y -qq ${needed.join(' ')}`, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.warn(`palkit: the tests need ${needed.join(', ')} (Debian: sudo apt-get install -y ${needed.join(' ')}).`);
  }
}
