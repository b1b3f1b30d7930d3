// The PAL's voice in a local room: synthesises what it says sentence by sentence (the next sentence while
// the current one plays), streams the audio to the room in real time in 40 ms slices, each tagged with the
// mouth shape of its middle, and reports each word when it is heard, so captions follow the voice.
import type { Viseme } from '../../../protocol/visemes.js';
import { DEFAULT_WORDS_PER_MINUTE, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesis.js';
import { joinSamples } from '../../platform/audio/pcm.js';
import type { AudioPiece } from './speech-pieces.js';
import { VisemeMarks } from './visemes-of.js';

/** Where the voice goes: the room's participants. */
export interface AudioOut {
  sendAudio(samples: Int16Array, sampleRate: number, viseme: Viseme): void;
  /** Participants drop what they were sent but have not played (the PAL was cut off). */
  flushAudio(): void;
}

/**
 * Where an utterance's first sound is on its way (for the turn's debug marks, see pal-agent.ts): its first
 * sentence handed to the synthesiser, the synthesiser's first samples, the first slice sent to the room.
 */
export type VoiceStage = 'sentence' | 'samples' | 'sent';

export interface VoiceHooks {
  /** The first sample (or, without a voice, the first word) is on its way. */
  onStart(): void;
  /** The utterance reached `stage` (each once). */
  onStage?(stage: VoiceStage): void;
  /** A word of the `index`th sentence is being heard; `end` is where the word ends in the sentence's text. */
  onWord(index: number, sentence: string, end: number): void;
  /** Synthesis failed: this sentence and the rest of the utterance go on as captions alone. */
  onVoiceFailed(error: unknown): void;
}

const SLICE_MS = 40;
/**
 * How far ahead of playback audio is sent: enough to ride out a busy event loop (at 200 calls on one core
 * it stalled 300-450 ms at times, and with 200 ms here each stall emptied the pages' players mid-word).
 * A cut costs nothing for it: `audio-flush` drops what a page holds.
 */
export const LEAD_MS = 400;
/** Clients start playing a little after the first slice arrives (their jitter buffer); captions wait as much. */
const CAPTION_DELAY_MS = 60;
/** Sentences synthesised ahead of the one playing. */
const LOOKAHEAD = 2;
/**
 * A later sentence is handed to the synthesiser as one with slack (it may wait for a speaker while other
 * rooms wait for their first words) only when the sentences before it play this long: after a short one
 * ("Good question.", under a second) it is needed about as soon as a first sentence is.
 */
const SLACK_MS = 2000;
/** How long a character of text plays at the local voice's default rate, to judge a sentence before its audio exists. */
const MS_PER_CHAR_AT_DEFAULT_RATE = 65;

interface Mark<T> {
  atMs: number;
  value: T;
}

export class PalVoice {
  /** Text mode: the visitor reads the replies, so nothing is synthesised and each sentence shows whole as soon as it is written. */
  textOnly = false;

  constructor(
    private readonly synthesizer: Synthesizer,
    private readonly out: AudioOut,
    /** Pace of captions when a sentence cannot be voiced. */
    private readonly msPerWord: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Speaks the sentences as they arrive and resolves once the last sample has been heard. When `signal`
   * aborts it flushes what the room still had queued and rejects with the signal's reason.
   */
  async speak(pieces: AsyncIterable<string | AudioPiece>, voice: VoiceChoice, hooks: VoiceHooks, signal: AbortSignal): Promise<void> {
    const timeline = new Timeline(this.now, hooks, signal);
    // Sentences are synthesised up to LOOKAHEAD ahead while earlier ones play; a slow text source (a model
    // still writing) never holds up what is ready.
    /** How long the pieces begun so far play (text estimated from its length), the latest last. */
    const begun: number[] = [];
    const ahead = new Lookahead(
      pieces,
      (piece) => {
        // What plays before this piece by the time it is needed: the pieces begun just before it.
        const continues = begun.slice(-LOOKAHEAD).reduce((sum, ms) => sum + ms, 0) >= SLACK_MS;
        begun.push(playsMs(piece, voice.rate));
        if (this.textOnly) return { text: typeof piece === 'string' ? piece : '', stream: null };
        if (typeof piece !== 'string') return { text: '', stream: Promise.resolve(audioStream(piece)) };
        timeline.reached('sentence');
        return { text: piece, stream: this.synthesizer.synthesize(piece, continues ? { ...voice, continues } : voice, signal) };
      },
      signal,
    );
    let voiced = true;
    try {
      for (let next = await ahead.next(); next; next = await ahead.next()) {
        try {
          if (this.textOnly || !next.stream) await this.write(next.text, timeline);
          // Once the voice failed, the rest of the utterance stays in captions rather than coming and going.
          else if (!voiced) await this.caption(next.text, timeline);
          else await this.play(next.text, await next.stream, timeline);
        } catch (error) {
          if (signal.aborted || !voiced) throw error;
          voiced = false;
          hooks.onVoiceFailed(error);
          await this.caption(next.text, timeline);
        }
      }
      await timeline.finish();
    } catch (error) {
      if (timeline.started) this.out.flushAudio();
      throw signal.aborted ? signal.reason : error;
    } finally {
      ahead.close();
    }
  }

  private async play(text: string, stream: SynthesisStream, timeline: Timeline): Promise<void> {
    const sliceSamples = Math.round((stream.sampleRate * SLICE_MS) / 1000);
    const visemes = new VisemeMarks();
    const base = timeline.beginSentence(text);
    let pending: Int16Array = new Int16Array(0);
    let offsetMs = 0;
    const send = async (slice: Int16Array) => {
      const durationMs = (slice.length / stream.sampleRate) * 1000;
      await timeline.sendAt(base + offsetMs);
      this.out.sendAudio(slice, stream.sampleRate, visemeAt(visemes.marks, offsetMs + durationMs / 2));
      timeline.reached('sent');
      offsetMs += durationMs;
      timeline.sent(base + offsetMs);
    };
    const sendSlices = async (samples: Int16Array) => {
      pending = joinSamples(pending, samples);
      let at = 0;
      while (pending.length - at >= sliceSamples) {
        await send(pending.subarray(at, at + sliceSamples));
        at += sliceSamples;
      }
      pending = pending.slice(at);
    };
    // A buffer of samples is sliced once the next one (or the end) has come: eSpeak reports a buffer's mouth
    // shapes after its samples, so slicing a buffer as it came gave every slice the shape of the buffer
    // before (its 100 ms held the mouth up to 100 ms late and lost shorter shapes). Synthesis runs far ahead
    // of real time, so the next buffer is milliseconds away.
    let held: Int16Array | null = null;
    for await (const event of stream.events) {
      if (event.type === 'word') timeline.word(base + event.atMs, event.text);
      else if (event.type === 'viseme') visemes.add(event);
      else {
        timeline.reached('samples');
        if (held) await sendSlices(held);
        held = event.samples;
      }
    }
    if (held) await sendSlices(held);
    if (pending.length) await send(pending);
  }

  /** Text mode: the sentence is shown at once (an audio piece, having no words, is left out). */
  private async write(text: string, timeline: Timeline): Promise<void> {
    if (!text.trim()) return;
    const base = timeline.beginSentence(text);
    timeline.word(base, text.trim());
    await timeline.sendAt(base);
    timeline.showWritten();
  }

  /** A sentence without a voice: its words are captioned at a speaking pace, and take as long as saying them. */
  private async caption(text: string, timeline: Timeline): Promise<void> {
    const base = timeline.beginSentence(text);
    const words = text.split(/\s+/).filter(Boolean);
    for (const [i, word] of words.entries()) {
      timeline.word(base + i * this.msPerWord, word);
      await timeline.sendAt(base + i * this.msPerWord);
      timeline.sent(base + (i + 1) * this.msPerWord);
    }
  }
}

interface Upcoming {
  text: string;
  /** null in text mode: the sentence is written, not voiced. */
  stream: Promise<SynthesisStream> | null;
}

/** Pulls pieces from the text source in the background and starts their synthesis, at most LOOKAHEAD ahead. */
class Lookahead {
  private readonly ready: Upcoming[] = [];
  private done = false;
  private failure: unknown = null;
  private wakeReader: (() => void) | null = null;
  private wakePump: (() => void) | null = null;
  private readonly iterator: AsyncIterator<string | AudioPiece>;

  constructor(
    source: AsyncIterable<string | AudioPiece>,
    private readonly start: (piece: string | AudioPiece) => Upcoming,
    private readonly signal: AbortSignal,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
    signal.addEventListener('abort', () => this.wake(), { once: true });
    void this.pump();
  }

  /** The next piece with its synthesis under way, or null when the source is exhausted. */
  async next(): Promise<Upcoming | null> {
    while (!this.ready.length && !this.done && !this.signal.aborted) await new Promise<void>((resolve) => (this.wakeReader = resolve));
    if (this.signal.aborted) throw this.signal.reason;
    const upcoming = this.ready.shift();
    this.wakePump?.();
    if (upcoming) return upcoming;
    if (this.failure) throw this.failure;
    return null;
  }

  close(): void {
    this.done = true;
    this.wake();
    void this.iterator.return?.();
  }

  private async pump(): Promise<void> {
    try {
      while (!this.done) {
        while (this.ready.length >= LOOKAHEAD && !this.done) await new Promise<void>((resolve) => (this.wakePump = resolve));
        const next = await this.iterator.next();
        if (next.done || this.done) break;
        if (typeof next.value === 'string' && !next.value.trim()) continue;
        const upcoming = this.start(next.value);
        upcoming.stream?.catch(() => undefined); // awaited in order by the reader; an early failure must not go unhandled
        this.ready.push(upcoming);
        this.wakeReader?.();
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.done = true;
      this.wakeReader?.();
    }
  }

  private wake(): void {
    this.wakeReader?.();
    this.wakePump?.();
  }
}

/** The room's view of time for one utterance: when audio was sent, when each word is heard. */
class Timeline {
  /** Wall time (ms) at which audio position 0 plays, or null before the first slice. */
  private zero: number | null = null;
  /** Audio position (ms) up to which slices were sent. */
  private sentMs = 0;
  private readonly words: Array<Mark<{ index: number; sentence: string; end: number }>> = [];
  private readonly stages = new Set<VoiceStage>();
  private sentence = '';
  private index = -1;
  private cursor = 0;

  constructor(
    private readonly now: () => number,
    private readonly hooks: VoiceHooks,
    private readonly signal: AbortSignal,
  ) {}

  get started(): boolean {
    return this.zero !== null;
  }

  /** A new sentence starts where the audio sent so far ends, or now if playback ran dry waiting for it. */
  beginSentence(text: string): number {
    this.sentence = text;
    this.index++;
    this.cursor = 0;
    if (this.zero !== null) this.sentMs = Math.max(this.sentMs, this.now() - this.zero);
    return this.sentMs;
  }

  /** The utterance reached `stage`: told once, the first time. */
  reached(stage: VoiceStage): void {
    if (this.stages.has(stage)) return;
    this.stages.add(stage);
    this.hooks.onStage?.(stage);
  }

  word(atMs: number, text: string): void {
    // Words are found in the sentence in order, so that captions keep its punctuation and spelling.
    const found = this.sentence.indexOf(text, this.cursor);
    let end = found >= 0 ? found + text.length : Math.min(this.sentence.length, this.cursor + text.length + 1);
    // Punctuation stuck to the word ("today.", "Hello,") is shown with it.
    while (end < this.sentence.length && !/\s/.test(this.sentence[end]!)) end++;
    this.cursor = end;
    this.words.push({ atMs, value: { index: this.index, sentence: this.sentence, end } });
  }

  /** Waits until a slice starting at `positionMs` may be sent (LEAD_MS ahead of playback). */
  async sendAt(positionMs: number): Promise<void> {
    if (this.zero === null) {
      this.zero = this.now();
      this.hooks.onStart();
    }
    await this.waitUntil(this.zero + positionMs - LEAD_MS);
  }

  sent(positionMs: number): void {
    this.sentMs = Math.max(this.sentMs, positionMs);
    this.emitDue();
  }

  /** Text mode: every word noted so far is shown now. */
  showWritten(): void {
    this.emitDue(Infinity);
  }

  /** Waits until everything sent has been heard, captioning the last words on time. */
  async finish(): Promise<void> {
    if (this.zero === null) return;
    await this.waitUntil(this.zero + this.sentMs + CAPTION_DELAY_MS);
    this.emitDue(Infinity);
  }

  private async waitUntil(wallMs: number): Promise<void> {
    for (;;) {
      this.emitDue();
      if (this.signal.aborted) throw this.signal.reason;
      const nextWord = this.words.length && this.zero !== null ? this.zero + this.words[0]!.atMs + CAPTION_DELAY_MS : Infinity;
      const wait = Math.min(wallMs, nextWord) - this.now();
      if (wallMs - this.now() <= 0) return;
      await sleep(Math.max(1, wait), this.signal);
    }
  }

  private emitDue(until = this.zero === null ? -Infinity : this.now() - this.zero - CAPTION_DELAY_MS): void {
    while (this.words.length && this.words[0]!.atMs <= until) {
      const { index, sentence, end } = this.words.shift()!.value;
      this.hooks.onWord(index, sentence, end);
    }
  }
}

/** Audio given as it is: the mouth opens with its loudness, slice by slice. */
function audioStream(piece: AudioPiece): SynthesisStream {
  const window = Math.round((piece.sampleRate * SLICE_MS) / 1000);
  async function* events(): AsyncGenerator<SynthesisEvent> {
    for (let at = 0; at < piece.samples.length; at += window) {
      const slice = piece.samples.subarray(at, at + window);
      const rms = Math.sqrt(slice.reduce((sum, s) => sum + s * s, 0) / Math.max(1, slice.length)) / 32768;
      yield {
        type: 'viseme',
        atMs: (at / piece.sampleRate) * 1000,
        viseme: rms > 0.12 ? 'A' : rms > 0.05 ? 'E' : rms > 0.015 ? 'L' : 'rest',
      };
    }
    yield { type: 'audio', samples: piece.samples };
  }
  return { sampleRate: piece.sampleRate, events: events() };
}

/** How long a piece plays: an audio piece exactly, text as estimated from its length at the voice's rate. */
function playsMs(piece: string | AudioPiece, wordsPerMinute = DEFAULT_WORDS_PER_MINUTE): number {
  if (typeof piece !== 'string') return (piece.samples.length / piece.sampleRate) * 1000;
  return piece.length * MS_PER_CHAR_AT_DEFAULT_RATE * (DEFAULT_WORDS_PER_MINUTE / wordsPerMinute);
}

function visemeAt(marks: VisemeMarks['marks'], atMs: number): Viseme {
  let current: Viseme = 'rest';
  for (const mark of marks) {
    if (mark.atMs > atMs) break;
    current = mark.viseme;
  }
  return current;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line no-restricted-globals -- paces audio to the wire at real speed: the audio's real time
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
