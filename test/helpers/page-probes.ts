// A page script that the end-to-end tests' own instruments build on (run before the page's scripts, in any
// engine): finding an element through shadow roots, and reading a stream's level through an analyser, on a
// timer or at its output time. Defines `window.__probes`; the heard-latency call, the lip-sync instruments,
// the voice-to-voice test and the visitor's ears (fake-microphone.ts) each add their own readings on top.
export const pageProbes = `
if (!window.__probes) {
  const deep = (root, selector) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
    return null;
  };
  // Each host found is kept while it stays in the page: the probes poll on timers, and a search through
  // every shadow root of the page at each tick was a steady share of a loaded page's main thread.
  const hosts = new Map();
  const host = (selector) => {
    let found = hosts.get(selector);
    if (!found?.isConnected) hosts.set(selector, (found = deep(document, selector)));
    return found;
  };
  /** An element inside the shadow root of the first \`host\` found anywhere in the page (kept while it is there). */
  const inside = (hostSelector, selector) => host(hostSelector)?.shadowRoot?.querySelector(selector) ?? null;
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
    /**
     * \`read({ at, peak })\` for each \`binMs\` of \`stream\`'s audio in \`audio\` (a context), in order, none missed,
     * stamped with when it reaches the output (the context's output timestamp where the engine has one, else now
     * plus the output latency), not when a poll happened to read it: a busy page polls late, and a late poll
     * must not move the sound (read at the poll, an answer's first sound was put 200 ms late behind a stalled
     * page; stamped at the render clock, 160 ms early while the audio thread rendered ahead in bursts). The
     * analyser's window (0.68 s at 48 kHz) covers what a late poll would otherwise miss. \`stamped(clock, rate)\`
     * says at each poll which clock stamped it and how fast the context's clock runs against the page's.
     */
    outputLevels(audio, stream, { binMs }, read, stamped = () => undefined) {
      const node = audio.createAnalyser();
      node.fftSize = 32768;
      audio.createMediaStreamSource(stream).connect(node);
      const data = new Float32Array(node.fftSize);
      const bin = Math.round((audio.sampleRate * binMs) / 1000);
      let done = null; // context time up to which samples were binned
      let since = null; // the first poll's context and page times
      setInterval(() => {
        if (audio.state !== 'running') return;
        node.getFloatTimeDomainData(data);
        const end = audio.currentTime;
        // How fast this context's clock runs against the page's (1 when its output keeps real time).
        since ??= { context: end, page: performance.now() };
        const rate = ((end - since.context) * 1000) / Math.max(1, performance.now() - since.page);
        // Gecko is never asked where its output is: the read can freeze its main thread for good (see
        // OUTPUT_CLOCK_READABLE in pal-audio.ts); its audio is stamped at render time (a few ms early here).
        const gecko = 'mozInnerScreenX' in window;
        const stamp = !gecko && audio.getOutputTimestamp ? audio.getOutputTimestamp() : {};
        const now = performance.now();
        // A stamp is believed when it puts the output within 0.3 s behind rendering: WebKitGTK's runs at half
        // the page's pace (believed, it stretched a 7.5 s greeting over 14 s), and is then left for its clock.
        const lag = stamp.performanceTime ? end - (stamp.contextTime + (now - stamp.performanceTime) / 1000) : NaN;
        let outputAt;
        if (lag > -0.05 && lag <= 0.3) {
          stamped('output timestamp', rate);
          outputAt = (t) => stamp.performanceTime + (t - stamp.contextTime) * 1000;
        } else {
          stamped('now + output latency', rate);
          const at = now + (gecko ? 0 : Math.min(0.3, audio.outputLatency || audio.baseLatency || 0) * 1000);
          outputAt = (t) => at + (t - end) * 1000;
        }
        const first = Math.max(0, data.length - Math.round(((end - (done ?? end - 0.1)) * audio.sampleRate)));
        for (let i = first; i + bin <= data.length; i += bin) {
          let peak = 0;
          for (let k = i; k < i + bin; k++) peak = Math.max(peak, Math.abs(data[k]));
          read({ at: outputAt(end - (data.length - i) / audio.sampleRate), peak });
        }
        done = end - ((data.length - first) % bin) / audio.sampleRate;
      }, 10);
    },
  };
}`;
