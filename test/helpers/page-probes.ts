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
    /** Every \`everyMs\`, \`read({ at, peak, rms })\` with the level of the last \`fftSize\` samples of \`stream\`. */
    levels(context, stream, { fftSize, everyMs }, read) {
      const node = context.createAnalyser();
      node.fftSize = fftSize;
      context.createMediaStreamSource(stream).connect(node);
      const data = new Float32Array(node.fftSize);
      setInterval(() => {
        node.getFloatTimeDomainData(data);
        let peak = 0;
        let sum = 0;
        for (const v of data) {
          peak = Math.max(peak, Math.abs(v));
          sum += v * v;
        }
        read({ at: performance.now(), peak, rms: Math.sqrt(sum / data.length) });
      }, everyMs);
    },
  };
}`;
