// A Daily runner entry for an installed @palkit/server (test/realtime/e2e/install.test.ts): the package's
// own compiled runner (dist/daily-runner.js: its Chromium via the playwright-core it installed, its
// prebuilt page script with daily-js inside) with daily-js's call object swapped for a stand-in, as Daily
// cannot be reached from here. A visitor joins; once the tracks the page published carry the PAL's voice
// (audible) and face (frames), the stand-in writes what it measured to `report`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface InstalledRunnerReport {
  peak: number;
  width: number;
  height: number;
}

const initScript = `(() => {
  const handlers = {};
  const emit = (event, payload) => (handlers[event] || []).forEach((h) => h({ action: event, ...payload }));
  let sources = {};
  let measuring = false;
  async function measure() {
    if (measuring || !sources.audioSource || !sources.videoSource) return;
    measuring = true;
    const video = document.createElement('video');
    video.muted = true;
    video.srcObject = new MediaStream([sources.videoSource]);
    await video.play();
    const context = new AudioContext();
    await context.resume();
    const analyser = context.createAnalyser();
    context.createMediaStreamSource(new MediaStream([sources.audioSource])).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let peak = 0;
    while (peak < 0.02 || video.videoWidth === 0) {
      analyser.getFloatTimeDomainData(samples);
      for (const s of samples) peak = Math.max(peak, Math.abs(s));
      await new Promise((r) => setTimeout(r, 20));
    }
    await window.standinReport(JSON.stringify({ peak, width: video.videoWidth, height: video.videoHeight }));
  }
  window.palkitCallObject = () => ({
    on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
    off() { return this; },
    async join() {
      const visitor = { session_id: 'visitor', user_name: 'Visitor', local: false, tracks: {} };
      setTimeout(() => emit('participant-joined', { participant: visitor }), 50);
      return {};
    },
    async leave() {},
    async destroy() {},
    participants() { return { local: { session_id: 'pal', local: true, tracks: {} } }; },
    sendAppMessage() { return this; },
    setLocalAudio() { return this; },
    setLocalVideo() { return this; },
    async setInputDevicesAsync(devices) { sources = { ...sources, ...devices }; void measure(); return {}; },
  });
})();`;

/** Writes the entry (an .mjs beside `dir`'s install) and says where it reports. */
export function writeInstalledRunnerStandin(dir: string, serverPackage: string): { entry: string; report: string } {
  const entry = join(dir, 'daily-runner-standin.mjs');
  const report = join(dir, 'daily-runner-report.json');
  const runner = pathToFileURL(join(serverPackage, 'dist/daily-runner.js')).href;
  writeFileSync(
    entry,
    [
      "import { writeFileSync } from 'node:fs';",
      `import { main } from ${JSON.stringify(runner)};`,
      `main({`,
      `  initScript: ${JSON.stringify(initScript)},`,
      `  async onPage(page) { await page.exposeFunction('standinReport', (json) => writeFileSync(${JSON.stringify(report)}, json)); },`,
      `});`,
    ].join('\n'),
  );
  return { entry, report };
}
