// A page script that the end-to-end tests' own instruments build on (run before the page's scripts, in any
// engine): finding an element through shadow roots, and reading a stream's level through an analyser on a
// timer. Defines `window.__probes`; the heard-latency call, the voice-to-voice test and the visitor's ears
// (fake-microphone.ts) each add their own readings on top.
export const pageProbes = `
if (!window.__probes) {
  const deep = (root, selector) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
    return null;
  };
  /** An element inside the shadow root of the first \`host\` found anywhere in the page. */
  const inside = (host, selector) => deep(document, host)?.shadowRoot?.querySelector(selector) ?? null;
  window.__probes = {
    inside,
    /** The stream the PAL's voice plays from (the stage's audio element), or null before there is one. */
    stageStream() {
      const audio = inside('pal-stage', 'audio');
      return audio && audio.srcObject instanceof MediaStream ? audio.srcObject : null;
    },
    /**
     * \`read({ at, peak, rms })\` for each \`everyMs\` of \`stream\`'s audio, in order and none missed, each
     * stamped with when \`context\` rendered its last sample, on the page's clock: not when a timer happened
     * to read it, as a busy page reads late and a late reading must not move the sound (read at the timer,
     * with a window of the last 5 ms, an answer's first sound was put 200 ms late behind a stalled page). The
     * analyser's window (32768 samples, 0.68 s at 48 kHz) covers a timer that late.
     */
    levels(context, stream, { everyMs }, read) {
      const node = context.createAnalyser();
      node.fftSize = 32768;
      context.createMediaStreamSource(stream).connect(node);
      const data = new Float32Array(node.fftSize);
      const rate = context.sampleRate;
      const bin = Math.max(1, Math.round((rate * everyMs) / 1000));
      let done = null; // the context time up to which samples were read
      setInterval(() => {
        if (context.state !== 'running') return;
        node.getFloatTimeDomainData(data);
        const end = context.currentTime;
        const now = performance.now();
        done = Math.max(done ?? end - bin / rate, end - data.length / rate);
        const bins = Math.floor(Math.round((end - done) * rate) / bin);
        for (let k = 0; k < bins; k++) {
          const binEnd = done + ((k + 1) * bin) / rate;
          const last = data.length - Math.round((end - binEnd) * rate);
          let peak = 0;
          let sum = 0;
          for (let i = last - bin; i < last; i++) {
            const v = data[i];
            peak = Math.max(peak, Math.abs(v));
            sum += v * v;
          }
          read({ at: now - (end - binEnd) * 1000, peak, rms: Math.sqrt(sum / bin) });
        }
        done += (bins * bin) / rate;
      }, everyMs);
    },
  };
}`;
