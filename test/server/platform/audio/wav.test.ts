// The one WAV module: what it writes (transcription requests, call recordings) reads back, and it reads
// WAV files written by others (extra chunks, odd sizes, streamed headers).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeWav, encodeWavRuns, readWav, wavDurationSeconds, wavHeader } from '../../../../src/server/platform/audio/wav.js';

describe('WAV files', () => {
  it('writes mono 16-bit PCM that reads back sample for sample', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const bytes = encodeWav(samples, 16_000);
    assert.equal(bytes.length, 44 + 12);
    const wav = readWav(bytes)!;
    assert.deepEqual(
      { rate: wav.sampleRate, channels: wav.channels, bits: wav.bitsPerSample, byteRate: wav.byteRate },
      { rate: 16_000, channels: 1, bits: 16, byteRate: 32_000 },
    );
    const back = new Int16Array(wav.data.buffer.slice(wav.data.byteOffset, wav.data.byteOffset + wav.data.byteLength));
    assert.deepEqual([...back], [...samples]);
    assert.deepEqual(
      Buffer.from(bytes.subarray(0, 44)),
      wavHeader(samples.length, 16_000),
      'one header for files written whole or appended to',
    );
  });

  it('writes runs of samples (a speech item said chunk by chunk) as the one file their joined samples make', () => {
    // Views into larger buffers at odd offsets, as the local voice hands them over.
    const backing = new Int16Array([9, 9, 0, 1, -1, 32767, 9, -32768, 1234, 9]);
    const runs = [backing.subarray(2, 6), new Int16Array(0), backing.subarray(7, 9)];
    const joined = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    assert.deepEqual(Buffer.from(encodeWavRuns(runs, 22_050)), Buffer.from(encodeWav(joined, 22_050)));
  });

  it('reads past other chunks (padded to even sizes) and trusts the bytes present over a streamed header', () => {
    const header = wavHeader(0, 22_050);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc'), Buffer.from([0])]);
    const data = Buffer.alloc(22_050); // half a second of 16-bit mono
    const dataChunk = Buffer.concat([Buffer.from('data'), Buffer.from([0xff, 0xff, 0xff, 0xff]), data]);
    const file = Buffer.concat([header.subarray(0, 36), list, dataChunk]);
    assert.equal(wavDurationSeconds(file), 0.5);
    assert.equal(wavDurationSeconds(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), undefined);
    assert.equal(wavDurationSeconds(new Uint8Array(3)), undefined);
  });
});
