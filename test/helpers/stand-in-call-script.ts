// In-page source of a recording stand-in for daily-js's call object, for tests of the Daily runner page
// (Daily cannot be reached from here): it "joins", lets one visitor in 50 ms later, and once the tracks
// the runner gave it carry the PAL's voice (audible) and face (frames at a <video>), runs `measured`, a
// statement with `peak` (the loudest sample heard) and `video` (the face playing) in scope.

export function standInCallScript(visitor: { session_id: string; user_name: string }, measured: string): string {
  return `(() => {
  const handlers = {};
  const emit = (event, payload) => (handlers[event] || []).forEach((h) => h({ action: event, ...payload }));
  const visitor = ${JSON.stringify({ ...visitor, local: false, tracks: {} })};
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
    ${measured}
  }
  window.palkitCallObject = () => ({
    on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
    off() { return this; },
    async join() { setTimeout(() => emit('participant-joined', { participant: visitor }), 50); return {}; },
    async leave() {},
    async destroy() {},
    participants() { return { local: { session_id: 'pal', local: true, tracks: {} } }; },
    sendAppMessage() { return this; },
    setLocalAudio() { return this; },
    setLocalVideo() { return this; },
    async setInputDevicesAsync(devices) { sources = { ...sources, ...devices }; void measure(); return {}; },
  });
})();`;
}
