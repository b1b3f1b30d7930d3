// One sentence on its way through eSpeak NG's pool (espeak.ts): what it says and how, what its consumer
// has been given, and the request a speaker works from, which passes on only what a previous attempt did
// not deliver, so that a sentence retried after its speaker died resumes where the dead one stopped.
import { SynthesisError, type SynthesisEvent } from '../synthesizer.js';
import type { Speaker, SpeakerRequest } from './instance.js';

export type Counts = Record<'audio' | 'word' | 'phoneme', number>;

/** One sentence on its way through the pool. */
export interface Job {
  lane: string;
  /** When it was queued, on the engine's clock: the voice queue's wait in /metrics. */
  queuedAt: number;
  id: number;
  text: string;
  chars: string[];
  voice: string;
  rate: number;
  signal: AbortSignal;
  /** Background work, or a later piece of an utterance under way: it may wait while a first piece goes. */
  slack: boolean;
  attempts: number;
  /**
   * What the consumer has been given, and what a retry therefore skips: the synthesiser says a text the
   * same way again (to within ~0.1% of its samples), so the new speaker goes on where the dead one stopped.
   */
  delivered: Counts;
  skip: Counts;
  settled: boolean;
  /** The speaker saying it now, so that an interrupt stops it there too. */
  speaker: Speaker | null;
  /** When it reached a speaker and the engine time its lane was charged for it then. */
  startedAt: number;
  estimateMs: number;
  push(event: SynthesisEvent | null, error?: Error): void;
}

/** What a speaker works from: the sentence's events, passed on unless a previous attempt delivered them. */
export function speakerRequest(job: Job, countSamples: (samples: number) => void): SpeakerRequest & { job: Job } {
  const seen: Counts = { audio: 0, word: 0, phoneme: 0 };
  /** Passes an event on unless a previous attempt already delivered it. */
  const deliver = (kind: keyof Counts, amount: number, event: () => SynthesisEvent) => {
    const from = seen[kind];
    seen[kind] += amount;
    if (job.settled || seen[kind] <= job.skip[kind]) return;
    job.delivered[kind] = seen[kind];
    if (kind !== 'audio' || from >= job.skip.audio) return job.push(event());
    // Part of this chunk was heard before the old speaker died: only the rest is new.
    const samples = (event() as { samples: Int16Array }).samples.subarray(job.skip.audio - from);
    job.push({ type: 'audio', samples });
  };
  return {
    job,
    id: job.id,
    voice: job.voice,
    rate: job.rate,
    text: job.text,
    onEvent: (event) => {
      if (event.type === 'audio') {
        countSamples(event.samples.length);
        deliver('audio', event.samples.length, () => event);
      } else if (event.type === 'word') {
        const text = job.chars.slice(event.position - 1, event.position - 1 + event.length).join('');
        if (text.trim()) deliver('word', 1, () => ({ type: 'word', atMs: event.atMs, text }));
      } else if (event.type === 'viseme') {
        deliver('phoneme', 1, () => event);
      } else if (event.type === 'end') {
        settle(job);
      } else {
        settle(
          job,
          new SynthesisError(event.message === 'unknown voice' ? 'unsupported_language' : 'unavailable', `espeak-ng: ${event.message}`),
        );
      }
    },
  };
}

export function settle(job: Job, error?: Error): void {
  if (job.settled) return;
  job.settled = true;
  job.push(null, error);
}
