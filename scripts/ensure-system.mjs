// Installs the system programs palkit's tests use when they are missing (`npm start` needs none but Chromium
// with PALKIT_DAILY_API_KEY, for palkit's Daily runner: the PAL's voice is eSpeak NG from npm and ffmpeg
// comes with @palkit/server, @ffmpeg-installer/<os>-<arch>):
// espeak-ng (its command line speaks as a visitor) and libespeak-ng's headers (the native voice bridge's
// tests build it with cc), and the three browser engines: Debian's Chromium, Firefox ESR
// (with PulseAudio, so that headless Firefox has an audio output), and WebKitGTK's WebKitWebDriver and
// MiniBrowser (webkit2gtk-driver) with Xvfb to show it, and openssl for its stand-in proxy's certificate. As root with apt-get it installs them;
// otherwise it says what to install and what needs them will fail or fall back.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const forStart = process.argv[2] === 'start';
const needed = [
  ...(forStart
    ? // With Daily rooms, palkit's own runner puts the PAL in them from a headless Chromium page.
      process.env.PALKIT_DAILY_API_KEY
      ? [['chromium', '/usr/bin/chromium']]
      : []
    : [
        ['chromium', '/usr/bin/chromium'],
        ['firefox-esr', '/usr/bin/firefox-esr'],
        ['webkit2gtk-driver', '/usr/bin/WebKitWebDriver'],
        ['xvfb', '/usr/bin/Xvfb'],
        ['pulseaudio', '/usr/bin/pulseaudio'],
        ['pulseaudio-utils', '/usr/bin/pactl'],
        ['openssl', '/usr/bin/openssl'],
        ['espeak-ng', '/usr/bin/espeak-ng'],
        // The balancer test runs docs/deploy/haproxy.cfg; the first-PAL test runs README's curl and jq.
        ['haproxy', '/usr/sbin/haproxy'],
        ['jq', '/usr/bin/jq'],
        // The opt-in native voice bridge (PALKIT_LOCAL_VOICE=native) is compiled against it in its tests.
        ['libespeak-ng-dev', '/usr/include/espeak-ng/speak_lib.h'],
      ]),
]
  .filter(([, path]) => !existsSync(path))
  .map(([pkg]) => pkg);

if (needed.length > 0 && !process.env.PALKIT_CHROMIUM) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log(`palkit: installing ${needed.join(', ')} with apt-get…`);
    execSync('apt-get update -qq', { stdio: 'inherit' });
    execSync(`apt-get install -y -qq ${needed.join(' ')}`, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    const who = forStart ? "palkit's Daily runner needs" : 'the tests need';
    console.warn(`palkit: ${who} ${needed.join(', ')} (Debian: sudo apt-get install -y ${needed.join(' ')}).`);
  }
}
