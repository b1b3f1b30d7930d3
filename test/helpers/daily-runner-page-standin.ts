// The real Daily runner process (live/runner/page-entry.ts: Chromium, the runner page, the bridge into the
// PAL's local room) with one thing swapped: the page's call object is a recording stand-in for daily-js,
// which cannot reach Daily from a test machine. The stand-in "joins", lets a visitor (Grace) in, and once
// the tracks the runner gave it carry the PAL's voice (audible) and face (frames at a <video>), has Grace
// say so in an app-message; the PAL's answer to it then shows that the whole path works.
import { main } from '../../src/server/live/runner/page-entry.js';

const initScript = `(() => {
  const handlers = {};
  const emit = (event, payload) => (handlers[event] || []).forEach((h) => h({ action: event, ...payload }));
  const grace = { session_id: 'grace', user_name: 'Grace', local: false, tracks: {} };
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
    const text = 'hello, I hear you at ' + peak.toFixed(2) + ' and see you at ' + video.videoWidth + 'x' + video.videoHeight;
    emit('app-message', { fromId: 'grace', data: { message_type: 'conversation', event_type: 'conversation.respond', properties: { text } } });
  }
  window.palkitCallObject = (options) => ({
    on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
    off() { return this; },
    async join() { setTimeout(() => emit('participant-joined', { participant: grace }), 50); return {}; },
    async leave() {},
    async destroy() {},
    participants() { return { local: { session_id: 'pal', local: true, tracks: {} } }; },
    sendAppMessage() { return this; },
    setLocalAudio() { return this; },
    setLocalVideo() { return this; },
    async setInputDevicesAsync(devices) { sources = { ...sources, ...devices }; void measure(); return {}; },
  });
})();`;

main({ initScript });
