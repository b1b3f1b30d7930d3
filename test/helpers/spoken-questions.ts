// Spoken questions for the voice-to-voice e2e, and a recogniser of them for the fake transcription server.
// Each question is spoken by espeak-ng in parts; a question in several parts has the visitor stop to think
// mid-sentence (a pause of `pauseMs` after a word that cannot end it). Each is one WAV, which the test plays
// into the page's microphone when the PAL has answered the one before.
//
// The recogniser knows the script and the clock: audio sent at a moment of a question holds what the visitor
// had said by then — the whole question with its punctuation, or the words so far closed with a full
// stop, as recognisers close a fragment ("I would like to book a table for."). (Matching the audio itself
// did not survive the browser's noise suppression and gain control reliably enough to count cut-offs.)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface SpokenQuestion {
  /** The parts, spoken with `pauseMs` of silence between them. */
  parts: string[];
}

export interface Spoken {
  text: string;
  /** Spoken in several parts, with a pause to think between them. */
  paused: boolean;
  /** The question alone as a WAV file (16-bit mono), no silence before or after it. */
  wav: Uint8Array;
  durationMs: number;
  /** The recogniser: the words said by this point of the question (ms from its first sound). */
  wordsBy(ms: number): string;
}

/** espeak-ng's speech without the silence it puts before and after. */
async function spoken(text: string): Promise<{ samples: Int16Array; rate: number }> {
  const { stdout: wav } = await promisify(execFile)('espeak-ng', ['--stdout', '-s', '165', text], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const { samples, rate } = readWav(new Uint8Array(wav.buffer, wav.byteOffset, wav.length));
  let first = 0;
  let last = samples.length - 1;
  while (first < last && Math.abs(samples[first]!) < 300) first++;
  while (last > first && Math.abs(samples[last]!) < 300) last--;
  return { samples: samples.slice(first, last + 1), rate };
}

/** The 16-bit mono PCM of a WAV file (the first `data` chunk; espeak-ng's stdout header gives no length). */
export function readWav(bytes: Uint8Array): { samples: Int16Array; rate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rate = view.getUint32(24, true);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    if (id === 'data') {
      const end = size === 0 || size === 0xffffffff || at + 8 + size > bytes.length ? bytes.length : at + 8 + size;
      const copy = bytes.slice(at + 8, end - ((end - at - 8) % 2));
      return { samples: new Int16Array(copy.buffer), rate };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('a WAV file without data');
}

function wavOf(samples: Int16Array, rate: number): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  new Int16Array(bytes.buffer, 44).set(samples);
  return bytes;
}

export async function spokenQuestion(question: SpokenQuestion, pauseMs: number): Promise<Spoken> {
  const parts = await Promise.all(question.parts.map(async (text) => ({ text, ...(await spoken(text)) })));
  const rate = parts[0]!.rate;
  const pause = Math.round((pauseMs * rate) / 1000);
  // Where each part's words are in the question (ms from its start).
  const spans: Array<{ words: string[]; fromMs: number; toMs: number }> = [];
  const audio = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0) + pause * (parts.length - 1));
  let offset = 0;
  for (const [pi, part] of parts.entries()) {
    if (pi > 0) offset += pause; // silence: the array starts zeroed
    audio.set(part.samples, offset);
    spans.push({ words: part.text.split(/\s+/), fromMs: (offset / rate) * 1000, toMs: ((offset + part.samples.length) / rate) * 1000 });
    offset += part.samples.length;
  }
  const text = question.parts.join(' ');

  function wordsBy(reached: number): string {
    if (reached < 0) return '';
    const words: string[] = [];
    let whole = true;
    for (const part of spans) {
      if (part.toMs <= reached) words.push(...part.words);
      else {
        whole = false;
        if (part.fromMs < reached)
          words.push(...part.words.slice(0, Math.floor((part.words.length * (reached - part.fromMs)) / (part.toMs - part.fromMs))));
      }
    }
    if (whole) return text;
    return words.length ? `${words.join(' ').replace(/[.,?!]+$/, '')}.` : '';
  }

  return { text, paused: parts.length > 1, wav: wavOf(audio, rate), durationMs: (audio.length / rate) * 1000, wordsBy };
}
