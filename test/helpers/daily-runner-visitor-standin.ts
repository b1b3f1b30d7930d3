// The real Daily runner process (live/runner/page-entry.ts) with a stand-in for daily-js whose visitor,
// Grace, speaks: her audio track (silent, then a spoken question from espeak-ng, then words over the PAL's
// answer) is handed to the runner page as daily-js hands a remote participant's track (`track-started`), so
// the PAL hears her only through the page's bridge. The stand-in records what the page published — the PAL's voice in 5 ms bins and the
// mouth region of each frame of its face, at the lip-sync tests' instruments (helpers/lip-sync.ts) — and
// the app-messages the page sent to the Daily room. Once the PAL has greeted, been asked, been cut off and
// answered again (then a quiet second and a half), the recording goes to a file the test reads (VISITOR_REPORT), as the
// runner's IPC carries only the runner's own reports.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/server/live/runner/page-entry.js';
import { ADA_MOUTH } from './lip-sync.js';
import { pageProbes } from './page-probes.js';

/** What Grace asks, once the PAL's greeting is over. */
export const VISITOR_QUESTION = 'What time does the library open tomorrow?';
/** What she says over the PAL's answer, a second into it. */
export const VISITOR_INTERRUPTION = 'Sorry, and on Sunday?';

/** Where the stand-in leaves the recording of a conversation. */
export const visitorReport = (conversationId: string) => join(tmpdir(), `palkit-daily-visitor-${conversationId}.json`);

const spoken = (text: string) => execFileSync('espeak-ng', ['--stdout', '-s', '165', text]).toString('base64');

const initScript = (spoken: { question: string; interruption: string }) => `${pageProbes}
(() => {
  const handlers = {};
  const emit = (event, payload) => (handlers[event] || []).forEach((h) => h({ action: event, ...payload }));
  const grace = { session_id: 'grace', user_name: 'Grace', local: false, tracks: {} };
  const recording = { frames: [], levels: [], sent: [], spokeAt: null, interruptedAt: null, published: {}, stills: {} };
  // Grace's microphone: always flowing (silent samples between words, as a real one), speech when she speaks.
  const voice = new AudioContext();
  const microphone = voice.createMediaStreamDestination();
  const floor = voice.createConstantSource();
  floor.offset.value = 0;
  floor.connect(microphone);
  floor.start();
  /** Plays a base64 WAV into Grace's track; resolves when it has been played. */
  const speak = async (wav) => {
    const bytes = Uint8Array.from(atob(wav), (c) => c.charCodeAt(0));
    const source = voice.createBufferSource();
    source.buffer = await voice.decodeAudioData(bytes.buffer);
    source.connect(microphone);
    recording.spokeAt ??= performance.now();
    source.start();
    return new Promise((resolve) => (source.onended = resolve));
  };

  // The PAL's voice as it was published, in 5 ms bins stamped at their output time.
  const ears = new AudioContext();
  const listen = (track) =>
    window.__probes.outputLevels(ears, new MediaStream([track]), { binMs: 5 }, (level) => recording.levels.push(level));
  // The mouth region of each frame of the published face (24×16 greys), at its display time.
  const watch = async (track) => {
    const video = document.createElement('video');
    video.muted = true;
    video.srcObject = new MediaStream([track]);
    await video.play();
    const canvas = document.createElement('canvas');
    canvas.width = 24;
    canvas.height = 16;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const box = ${JSON.stringify(ADA_MOUTH)};
    // Two whole frames to look at: the face as Grace begins to speak (the PAL quiet), and the frame whose
    // mouth differs most from that one's while the PAL answers.
    const whole = document.createElement('canvas');
    let rest = null;
    let most = 0;
    const still = (grey) => {
      const keep = () => {
        whole.width = video.videoWidth;
        whole.height = video.videoHeight;
        whole.getContext('2d').drawImage(video, 0, 0);
        return whole.toDataURL('image/png');
      };
      if (recording.spokeAt === null) return;
      if (!rest) return void ((rest = grey), (recording.stills.resting = keep()));
      const distance = grey.reduce((sum, v, i) => sum + Math.abs(v - rest[i]), 0) / grey.length;
      if (distance > most) (most = distance), (recording.stills.speaking = keep());
    };
    const grab = (now, meta) => {
      const sx = (box.x * video.videoWidth) / box.width, sy = (box.y * video.videoHeight) / box.height;
      context.drawImage(video, sx, sy, (box.w * video.videoWidth) / box.width, (box.h * video.videoHeight) / box.height, 0, 0, 24, 16);
      const data = context.getImageData(0, 0, 24, 16).data;
      const grey = [];
      for (let i = 0; i < data.length; i += 4) grey.push(Math.round((data[i] + data[i + 1] + data[i + 2]) / 3));
      recording.frames.push({ at: meta.expectedDisplayTime || now, grey });
      recording.size = [video.videoWidth, video.videoHeight];
      still(grey);
      video.requestVideoFrameCallback(grab);
    };
    video.requestVideoFrameCallback(grab);
  };

  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  const audible = (level) => level.peak > 0.003;
  /** The PAL's voice heard after \`since\`, then \`quietMs\` of silence. */
  const spokeThenQuiet = (since, quietMs) => {
    const bins = quietMs / 5;
    const levels = recording.levels;
    return levels.some((l) => l.at > since && audible(l)) && levels.length > bins && !levels.slice(-bins).some(audible);
  };
  async function visit() {
    // The greeting, then a quiet second: Grace asks her question.
    while (!spokeThenQuiet(0, 1000)) await wait(50);
    await speak(${JSON.stringify(spoken.question)});
    const asked = performance.now();
    // A second into the PAL's answer she talks over it; it stops, answers that, and is quiet again.
    for (const started = performance.now(); performance.now() - started < 20000; await wait(20)) {
      const first = recording.levels.find((l) => l.at > asked && audible(l));
      if (first && performance.now() - first.at > 1000) break;
    }
    recording.interruptedAt = performance.now();
    await speak(${JSON.stringify(spoken.interruption)});
    const interrupted = performance.now();
    for (const started = performance.now(); !spokeThenQuiet(interrupted, 1500); await wait(50))
      if (performance.now() - started > 30000) break;
    await window.standinReport(JSON.stringify(recording));
  }

  window.palkitCallObject = () => ({
    on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
    off() { return this; },
    async join() {
      setTimeout(() => {
        emit('participant-joined', { participant: grace });
        emit('track-started', { participant: grace, track: microphone.stream.getAudioTracks()[0] });
      }, 50);
      return {};
    },
    async leave() {},
    async destroy() {},
    participants() { return { local: { session_id: 'pal', local: true, tracks: {} } }; },
    sendAppMessage(data, to) { recording.sent.push({ at: performance.now(), to, data }); return this; },
    setLocalAudio() { return this; },
    setLocalVideo() { return this; },
    async setInputDevicesAsync({ audioSource, videoSource }) {
      if (audioSource && !recording.published.audio) {
        recording.published.audio = performance.now();
        listen(audioSource);
        void visit();
      }
      if (videoSource && !recording.published.video) {
        recording.published.video = performance.now();
        void watch(videoSource);
      }
      return {};
    },
  });
})();`;

main({
  initScript: initScript({ question: spoken(VISITOR_QUESTION), interruption: spoken(VISITOR_INTERRUPTION) }),
  async onPage(page, start) {
    await page.exposeFunction('standinReport', (json: string) => writeFileSync(visitorReport(start.conversationId), json));
  },
});
