// Page scripts (run before the page's own) that give an end-to-end test the visitor's microphone and ears,
// in any engine: used by the walks in every engine (test/realtime/e2e/visitor-walks.test.ts, and the voice
// walk, visitor-engines.test.ts) and the voice-to-voice turns (test/realtime/e2e/voice-to-voice.test.ts).
import { pageProbes } from './page-probes.js';

/**
 * The visitor's microphone is the test's: silent until `window.__speak(base64 audio file)` plays speech into
 * it. Silent, because the engines' own fake devices are not (Firefox's plays a constant 1 kHz tone, WebKit's
 * mock one beeps), and the service's voice activity detection takes that for a visitor talking over the
 * greeting; and always flowing, as a real microphone delivers silent samples between words (Firefox ended no
 * turn otherwise).
 *
 * getUserMedia still asks the engine, so that permission, errors and the device's identity are real; each
 * audio track it hands back is swapped for the test's, which answers with the device's id, group and label:
 * the device check hands the call the microphone's `deviceId` as an exact constraint, and a track without it
 * (Chromium gives a Web Audio track an id of its own, "WebAudio-…") made the call's getUserMedia fail with an
 * OverconstrainedError, so the element said the microphone was unavailable.
 *
 * The audio context starts on the visitor's first click or tap, as any page's must in WebKit and Firefox.
 *
 * The swap is made on MediaDevices.prototype, never on navigator.mediaDevices itself: WebKit drops a property
 * set on that object when it collects garbage (the object's wrapper is made anew; a page that allocated a
 * little found the native getUserMedia back within 200 ms, every time). The page then opened the mock
 * microphone, the service took its beeps for the visitor speaking, and the PAL's greeting, held for its face,
 * was dropped: in about one loaded WebKit call in four of test/realtime/e2e/lip-sync-webkit.test.ts the
 * greeting never came.
 */
export const fakeMicrophone = `
if (navigator.mediaDevices?.getUserMedia && !window.__fakeMicrophone) {
  window.__fakeMicrophone = true;
  const context = new AudioContext();
  const out = context.createMediaStreamDestination();
  const floor = context.createConstantSource();
  floor.offset.value = 0;
  floor.connect(out);
  floor.start();
  const wake = () => context.resume();
  for (const type of ['pointerdown', 'click', 'touchstart', 'keydown']) window.addEventListener(type, wake, true);
  window.__micContext = context;
  window.__speak = async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const source = context.createBufferSource();
    source.buffer = await context.decodeAudioData(bytes.buffer);
    source.connect(out);
    source.start();
    return performance.now();
  };
  // On the prototype: WebKit loses a patch set on navigator.mediaDevices itself (below).
  const real = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = async function (constraints) {
    const stream = await real.call(this, constraints);
    for (const track of stream.getAudioTracks()) {
      const settings = track.getSettings();
      const label = track.label;
      const mine = out.stream.getAudioTracks()[0].clone();
      const own = mine.getSettings.bind(mine);
      mine.getSettings = () => ({ ...own(), deviceId: settings.deviceId, groupId: settings.groupId });
      Object.defineProperty(mine, 'label', { get: () => label });
      stream.removeTrack(track);
      track.stop();
      stream.addTrack(mine);
    }
    return stream;
  };
}`;

/**
 * The visitor's ears: `window.__listen()` (once the stage has its audio element) puts a Web Audio analyser
 * on the PAL's voice as the stage plays it, sampling its level (`window.__level.samples`) and the caption
 * shown (`window.__voice.captions`) every 20 ms; `window.__voice.messages` has every protocol message with
 * the page time it arrived. `window.__contexts()` tells whether the test's audio contexts run (they start on
 * the visitor's first click, with the microphone's).
 */
export const voiceListener = `${pageProbes}
if (!window.__voice) {
  window.__voice = { messages: [], captions: [] };
  window.addEventListener('pal-protocol-message', (e) => window.__voice.messages.push({ at: performance.now(), m: JSON.parse(JSON.stringify(e.detail)) }));
  const context = new AudioContext();
  const wake = () => context.resume();
  for (const type of ['pointerdown', 'click', 'touchstart', 'keydown']) window.addEventListener(type, wake, true);
  window.__contexts = () => [context.state, window.__micContext?.state ?? 'none'];
  window.__inside = window.__probes.inside;
  window.__level = { samples: [] };
  window.__listen = () => {
    const stream = window.__probes.stageStream();
    if (!stream) return false;
    window.__probes.levels(context, stream, { fftSize: 1024, everyMs: 20 }, ({ at, rms }) => {
      window.__level.samples.push({ at, rms });
      const caption = window.__inside('pal-transcript[mode="captions"]', '.caption-text');
      window.__voice.captions.push({ at: performance.now(), text: caption ? caption.textContent.trim() : '' });
    });
    return true;
  };
}`;
