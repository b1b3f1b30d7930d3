// 16-bit PCM sample runs, joined.

/** The runs one after another (the first run itself when it is the only one with samples). */
export function joinSamples(...runs: Int16Array[]): Int16Array {
  const filled = runs.filter((r) => r.length);
  if (filled.length <= 1) return filled[0] ?? new Int16Array(0);
  const joined = new Int16Array(filled.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const run of filled) {
    joined.set(run, at);
    at += run.length;
  }
  return joined;
}

/** Linear resampling of 16-bit PCM from `fromRate` to `toRate`, as floats (the same run when the rates match). */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return Float32Array.from(samples);
  const length = Math.round((samples.length * toRate) / fromRate);
  const out = new Float32Array(length);
  const step = fromRate / toRate;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const j = Math.floor(x);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = a + (b - a) * (x - j);
  }
  return out;
}
