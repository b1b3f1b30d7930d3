// WAV files of 16-bit PCM: written for transcription requests and call recordings, read for the
// length of rendered speech. Only the service's own format is written (mono, little-endian PCM); any
// RIFF/WAVE with a `fmt ` chunk before its `data` chunk is read.

export const WAV_HEADER_BYTES = 44;

/** The 44-byte header of a mono 16-bit PCM WAV file holding `sampleCount` samples. */
export function wavHeader(sampleCount: number, sampleRate: number): Buffer {
  const data = sampleCount * 2;
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16); // size of the fmt chunk
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  h.writeUInt16LE(2, 32); // bytes per frame
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data, 40);
  return h;
}

/** Mono 16-bit samples as a whole WAV file. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  return encodeWavRuns([samples], sampleRate);
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Runs of mono 16-bit samples as one WAV file, without joining them first. On a little-endian host (every
 * one the service runs on) each run is one byte copy: a speech item's minutes of audio (~13 MB) took
 * 100–200 ms sample by sample on the service's thread, and every room waited.
 */
export function encodeWavRuns(runs: Int16Array[], sampleRate: number): Uint8Array<ArrayBuffer> {
  const count = runs.reduce((n, run) => n + run.length, 0);
  const bytes = new Uint8Array(WAV_HEADER_BYTES + count * 2);
  bytes.set(wavHeader(count, sampleRate));
  const view = new DataView(bytes.buffer);
  let at = WAV_HEADER_BYTES;
  for (const run of runs) {
    if (littleEndian) bytes.set(new Uint8Array(run.buffer, run.byteOffset, run.byteLength), at);
    else for (let i = 0; i < run.length; i++) view.setInt16(at + i * 2, run[i]!, true);
    at += run.byteLength;
  }
  return bytes;
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  byteRate: number;
  /** The audio bytes actually present (a streamed header may claim more than follows). */
  data: Uint8Array;
}

/** The format and audio of a WAV file, or undefined when the bytes are not one. */
export function readWav(bytes: Uint8Array): WavInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let format: Omit<WavInfo, 'data'> | undefined;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 24 <= bytes.length) {
      format = {
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        byteRate: view.getUint32(at + 16, true),
        bitsPerSample: view.getUint16(at + 22, true),
      };
    }
    if (id === 'data') {
      if (!format?.byteRate) return undefined;
      return { ...format, data: bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + size)) };
    }
    at += 8 + size + (size % 2); // chunks are padded to an even length
  }
  return undefined;
}

/** Seconds of audio in a WAV file, or undefined when the bytes are not a WAV file. */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  const wav = readWav(bytes);
  return wav ? wav.data.length / wav.byteRate : undefined;
}
