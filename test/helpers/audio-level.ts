// How loud audio is, to tell speech from silence: RMS of 16-bit PCM, as a fraction of full scale
// (0 = silence; a tone at full scale ≈ 0.707; espeak-ng's speech ≈ 0.1).

/** The samples of a 16-bit PCM WAV file (a streamed header's oversized data length is read as "to the end"). */
export function wavSamples(bytes: Uint8Array): { sampleRate: number; channels: number; samples: Int16Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let format: { sampleRate: number; channels: number; bits: number } | undefined;
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ')
      format = { channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true), bits: view.getUint16(at + 22, true) };
    if (tag(at) === 'data') {
      if (!format || format.bits !== 16) throw new Error(`not 16-bit PCM: ${JSON.stringify(format)}`);
      const length = Math.floor(Math.min(size, bytes.length - at - 8) / 2);
      const samples = new Int16Array(length);
      for (let i = 0; i < length; i++) samples[i] = view.getInt16(at + 8 + i * 2, true);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('the WAV file has no data chunk');
}

/** Root mean square of the samples over full scale (32768). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length) / 32768;
}
