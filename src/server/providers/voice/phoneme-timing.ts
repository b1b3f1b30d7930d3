// How the local voice says a text, for fitting its phonemes onto a provider's audio (align-visemes.ts):
// eSpeak says it (its samples are counted and dropped) and reports each phoneme's shape and each word
// with its own timing.
import type { Synthesizer, VoiceChoice } from './synthesizer.js';
import { VisemeMarks } from './visemes-of.js';
import type { PhonemeTiming } from './align-visemes.js';

export type Phonemiser = (text: string, voice: VoiceChoice, signal: AbortSignal) => Promise<PhonemeTiming>;

/** The local voice as a phonemiser: it says the text and keeps only the timing. */
export function phonemiserOf(local: Synthesizer): Phonemiser {
  return async (text, voice, signal) => {
    const stream = await local.synthesize(text, voice, signal);
    const visemes = new VisemeMarks();
    const timing: PhonemeTiming = { durationMs: 0, visemes: visemes.marks, words: [] };
    let samples = 0;
    for await (const event of stream.events) {
      if (event.type === 'audio') samples += event.samples.length;
      else if (event.type === 'viseme') visemes.add(event);
      else timing.words.push({ atMs: event.atMs, text: event.text });
    }
    timing.durationMs = (samples / stream.sampleRate) * 1000;
    return timing;
  };
}
