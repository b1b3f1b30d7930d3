// Reads the length of a PCM WAV file from its header (espeak-ng writes plain RIFF/WAVE).

/** Seconds of audio in a WAV file, or undefined when the bytes are not a WAV file. */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = view.getUint32(at + 16, true);
    if (id === 'data') {
      if (!byteRate) return undefined;
      // A streamed header may claim a huge size; the bytes actually present are what plays.
      const available = Math.min(size, bytes.length - (at + 8));
      return available / byteRate;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}
