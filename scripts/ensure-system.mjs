// Installs the system programs the test suites use when they are missing: Debian's Chromium (browser and
// end-to-end tests), ffmpeg and espeak-ng (face thumbnails, video and speech rendering). As root with
// apt-get it installs them; otherwise it says what to install and the suites that need them will fail.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const needed = [
  ['chromium', '/usr/bin/chromium'],
  ['ffmpeg', '/usr/bin/ffmpeg'],
  ['espeak-ng', '/usr/bin/espeak-ng'],
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
