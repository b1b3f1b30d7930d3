// The local PAL's ears: each visitor's microphone audio goes through voice activity detection. Speech
// that starts while the PAL talks cuts it off (barge-in). With a recogniser, the turn is transcribed
// while the visitor still speaks: at each pause the audio so far is sent (its words reach the page as
// partial captions), and if no more speech follows those words are the turn's — no second request after
// it ends. The words also decide how long the pause must be: short after a finished sentence, long when
// they trail off (`end-of-turn.ts`). Without a recogniser, the visitor's browser recognises the words and
// sends them as utterances; the audio here then only lets the visitor interrupt.
import type { Participant } from '../../../protocol/room.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { Ears, VoiceActivity } from '../ears/ears.js';
import type { VoiceChange } from '../ears/vad.js';
import { pauseToEndTurn, TRAILING_MS, UNSURE_MS } from './end-of-turn.js';

export interface HearingPort {
  readonly palSpeaking: boolean;
  /** The visitor began to speak (or, without a recogniser, spoke over the PAL). */
  started(from: Participant): void;
  /** The visitor's turn ended, `silenceMs` after their speech did (the pause that ended it). */
  stopped(from: Participant, silenceMs: number): void;
  /** The words of the turn recognised so far, while it goes on (a caption, not yet a turn). */
  partial(from: Participant, text: string): void;
  /** Transcribed words of a finished turn. */
  heard(from: Participant, text: string): void;
  /** Transcription failed: the visitor is told to type. */
  failed(error: unknown): void;
  /** A finished turn held no words the recogniser could make out: the visitor is told it was missed. */
  missed(from: Participant): void;
}

/** The transcription of a turn's audio up to its latest pause. */
interface EarlyWords {
  readonly abort: AbortController;
  /** Settles with the words, or null when the request failed (the turn is then transcribed whole). */
  readonly words: Promise<string | null>;
  /** The words once they came. */
  text?: string;
  /** No speech since the pause: the words are all the turn's so far. */
  current: boolean;
}

interface Listener {
  activity: VoiceActivity;
  sampleRate: number;
  speaking: boolean;
  /** At most one early transcription per visitor: a new pause aborts the one before. */
  early: EarlyWords | null;
}

export class PalHearing {
  private readonly listeners = new Map<string, Listener>();
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: Pick<ServiceDeps, 'log'>,
    private readonly ears: Ears,
    private readonly port: HearingPort,
    /** The language to recognise, or '' to let the recogniser detect the one spoken. */
    private readonly language: () => string,
  ) {}

  get transcribes(): boolean {
    return this.ears.transcribe !== undefined;
  }

  hear(from: Participant, samples: Int16Array, sampleRate: number): void {
    let listener = this.listeners.get(from.participant_id);
    if (!listener || listener.sampleRate !== sampleRate) {
      // A new rate needs a new detector; the old one is freed, or each switch would leak one.
      if (listener) this.drop(listener);
      listener = { activity: this.ears.detector(sampleRate), sampleRate, speaking: false, early: null };
      this.listeners.set(from.participant_id, listener);
    }
    listener.activity.bargeIn = this.port.palSpeaking;
    for (const change of listener.activity.push(samples)) this.changed(from, listener, change);
  }

  /** A participant left: what it was saying is dropped. */
  forget(participantId: string): void {
    const listener = this.listeners.get(participantId);
    if (listener) this.drop(listener);
    this.listeners.delete(participantId);
  }

  close(): void {
    this.abort.abort();
    for (const listener of this.listeners.values()) listener.activity.close();
    this.listeners.clear();
  }

  private drop(listener: Listener): void {
    listener.early?.abort.abort();
    listener.activity.close();
  }

  private changed(from: Participant, listener: Listener, change: VoiceChange): void {
    switch (change.type) {
      case 'speech-start':
        listener.early?.abort.abort();
        listener.early = null;
        listener.speaking = true;
        this.port.started(from);
        return;
      case 'pause':
        this.transcribeEarly(from, listener, change.samples, change.sampleRate);
        return;
      case 'resume':
        // More words are coming: the early words are only a caption now, and the pause is back to the usual.
        if (listener.early) listener.early.current = false;
        listener.activity.hangoverMs = UNSURE_MS;
        return;
      case 'speech-end': {
        listener.speaking = false;
        const early = listener.early?.current ? listener.early : null;
        if (!early) listener.early?.abort.abort();
        listener.early = null;
        this.port.stopped(from, change.silenceMs);
        void this.finish(from, early, change.samples, change.sampleRate);
      }
    }
  }

  /** Sends the turn so far at a pause; once its words come, they set the pause that ends the turn. */
  private transcribeEarly(from: Participant, listener: Listener, samples: Int16Array, sampleRate: number): void {
    const transcribe = this.ears.transcribe;
    if (!transcribe) return;
    listener.early?.abort.abort();
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.abort.signal]);
    const early: EarlyWords = {
      abort,
      current: true,
      words: transcribe(samples, sampleRate, this.language(), signal, (soFar) => {
        if (!signal.aborted) this.port.partial(from, soFar);
      }).then(
        (text) => text.trim(),
        (error: unknown) => {
          if (!signal.aborted)
            this.deps.log.info('early transcription failed; the turn is transcribed whole', {
              error: error instanceof Error ? error.message : String(error),
            });
          return null;
        },
      ),
    };
    listener.early = early;
    // Until the words come the turn cannot be answered anyway, so it does not end on a guess: it waits
    // for them (as long as for words that trail off); a slow recogniser then never cuts a visitor off.
    listener.activity.hangoverMs = TRAILING_MS;
    void early.words.then((text) => {
      if (signal.aborted || listener.early !== early || !early.current) return;
      if (text !== null) early.text = text;
      listener.activity.hangoverMs = text === null ? UNSURE_MS : pauseToEndTurn(text, this.language() || 'en');
      const end = listener.activity.endIfOver();
      if (end) this.changed(from, listener, end);
    });
  }

  /** The turn's words: the early ones when no speech followed them, else (or when they failed) the whole turn's. */
  private async finish(from: Participant, early: EarlyWords | null, samples: Int16Array, sampleRate: number): Promise<void> {
    const transcribe = this.ears.transcribe;
    if (!transcribe) return;
    try {
      const known = early ? (early.text ?? (await early.words)) : null;
      const text =
        known ??
        (await transcribe(samples, sampleRate, this.language(), this.abort.signal, (soFar) => this.port.partial(from, soFar))).trim();
      if (this.abort.signal.aborted) return;
      if (text) this.port.heard(from, text);
      else this.port.missed(from);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.deps.log.error('transcription failed', { error: error instanceof Error ? error.message : String(error) });
      this.port.failed(error);
    }
  }
}
