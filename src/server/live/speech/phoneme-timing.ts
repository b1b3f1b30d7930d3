// How the local voice says a text, for fitting its phonemes onto a provider's audio (align-visemes.ts):
// eSpeak says it (its samples are counted and dropped) and reports each phoneme's shape and each word
// with its own timing.
import type { Synthesizer, VoiceChoice } from '../../providers/local-voice/synthesizer.js';
import { leadInShape } from '../../providers/local-voice/visemes-of.js';
import type { PhonemeTiming } from './align-visemes.js';

export type Phonemiser = (text: string, voice: VoiceChoice, signal: AbortSignal) => Promise<PhonemeTiming>;

/** The local voice as a phonemiser: it says the text and keeps only the timing. */
export function phonemiserOf(local: Synthesizer): Phonemiser {
  return async (text, voice, signal) => {
    const stream = await local.synthesize(text, voice, signal);
    const timing: PhonemeTiming = { durationMs: 0, visemes: [], words: [] };
    let samples = 0;
    let leadIn: PhonemeTiming['visemes'][number] | null = null;
    for await (const event of stream.events) {
      if (event.type === 'audio') samples += event.samples.length;
      else if (event.type === 'viseme') {
        // An h takes the shape of the vowel after it (leadInShape).
        if (leadIn) leadIn.viseme = leadInShape(leadIn.viseme, event.viseme);
        const mark = { atMs: event.atMs, viseme: event.viseme };
        timing.visemes.push(mark);
        leadIn = event.leadsIn ? mark : null;
      } else timing.words.push({ atMs: event.atMs, text: event.text });
    }
    timing.durationMs = (samples / stream.sampleRate) * 1000;
    return timing;
  };
}
