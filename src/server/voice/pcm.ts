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
