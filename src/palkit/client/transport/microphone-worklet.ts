// The microphone's AudioWorklet, kept as its source text: the script-tag build also writes it out as
// MICROPHONE_WORKLET_FILE, which the service serves beside palkit.js, so that pages with a strict
// Content-Security-Policy (scripts from the service's origin only, no `blob:`) can load it.
export const MICROPHONE_RATE = 16000;
const SLICE = MICROPHONE_RATE / 50;
export const MICROPHONE_WORKLET_FILE = 'palkit-microphone.js';

// Runs on the audio thread; averages the input down to 16 kHz (the context runs at 44.1/48 kHz).
export const MICROPHONE_WORKLET = `
registerProcessor('palkit-microphone', class extends AudioWorkletProcessor {
  constructor() { super(); this.out = new Int16Array(${SLICE}); this.n = 0; this.acc = 0; this.count = 0; this.pos = 0; }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    const step = sampleRate / ${MICROPHONE_RATE};
    for (let i = 0; i < input.length; i++) {
      this.acc += input[i]; this.count++; this.pos++;
      if (this.pos >= step) {
        this.pos -= step;
        const v = Math.max(-1, Math.min(1, this.acc / this.count));
        this.out[this.n++] = v * 32767; this.acc = 0; this.count = 0;
        if (this.n === this.out.length) { this.port.postMessage(this.out.slice()); this.n = 0; }
      }
    }
    return true;
  }
});`;
