// The local PAL's ears: each visitor's microphone audio goes through voice activity detection. Speech
// that starts while the PAL talks cuts it off (barge-in); a finished turn is transcribed when the service
// has a recogniser, and answered. Without one, the visitor's browser recognises the words and sends them
// as utterances; the audio here then only lets the visitor interrupt.
import type { Participant } from '../../../protocol/room.js';
import type { ServiceDeps } from '../../app/context.js';

/** Voice activity of one stream of 16-bit mono samples. */
export interface VoiceActivity {
  /** Feeds samples; returns what changed: speech began, or a turn ended with its audio (at the rate it carries). */
  push(samples: Int16Array): Array<{ type: 'speech-start' } | { type: 'speech-end'; samples: Int16Array; sampleRate: number }>;
  /** Frees what the detector holds (its WebAssembly instance); it hears nothing after. */
  close(): void;
  /** While the PAL talks, a louder, longer voice is needed to count as speech (its own echo must not). */
  bargeIn: boolean;
}

export interface HearingPort {
  readonly palSpeaking: boolean;
  /** The visitor began to speak (or, without a recogniser, spoke over the PAL). */
  started(from: Participant): void;
  stopped(from: Participant): void;
  /** Transcribed words of a finished turn. */
  heard(from: Participant, text: string): void;
  /** Transcription failed: the visitor is told to type. */
  failed(error: unknown): void;
  /** A finished turn held no words the recogniser could make out: the visitor is told it was missed. */
  missed(from: Participant): void;
}

export interface Ears {
  /** Voice activity for one visitor's stream at this sample rate. */
  detector(sampleRate: number): VoiceActivity;
  /** Turns a finished turn into text; absent when the service has no recogniser. */
  transcribe?: (samples: Int16Array, sampleRate: number, language: string, signal: AbortSignal) => Promise<string>;
}

interface Listener {
  activity: VoiceActivity;
  sampleRate: number;
  speaking: boolean;
}

export class PalHearing {
  private readonly listeners = new Map<string, Listener>();
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: Pick<ServiceDeps, 'log'>,
    private readonly ears: Ears,
    private readonly port: HearingPort,
    private readonly language: () => string,
  ) {}

  get transcribes(): boolean {
    return this.ears.transcribe !== undefined;
  }

  hear(from: Participant, samples: Int16Array, sampleRate: number): void {
    let listener = this.listeners.get(from.participant_id);
    if (!listener || listener.sampleRate !== sampleRate) {
      // A new rate needs a new detector; the old one is freed, or each switch would leak one.
      listener?.activity.close();
      listener = { activity: this.ears.detector(sampleRate), sampleRate, speaking: false };
      this.listeners.set(from.participant_id, listener);
    }
    listener.activity.bargeIn = this.port.palSpeaking;
    for (const change of listener.activity.push(samples)) {
      if (change.type === 'speech-start') {
        listener.speaking = true;
        this.port.started(from);
      } else {
        listener.speaking = false;
        this.port.stopped(from);
        void this.transcribe(from, change.samples, change.sampleRate);
      }
    }
  }

  /** A participant left: what it was saying is dropped. */
  forget(participantId: string): void {
    this.listeners.get(participantId)?.activity.close();
    this.listeners.delete(participantId);
  }

  close(): void {
    this.abort.abort();
    for (const listener of this.listeners.values()) listener.activity.close();
    this.listeners.clear();
  }

  private async transcribe(from: Participant, samples: Int16Array, sampleRate: number): Promise<void> {
    const transcribe = this.ears.transcribe;
    if (!transcribe) return;
    try {
      const text = (await transcribe(samples, sampleRate, this.language(), this.abort.signal)).trim();
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
