// The visitor's words in a Daily room with palkit's runner as the PAL, where the service has no speech
// recogniser: as in a local room (local.ts), the browser's own recognition (LocalListener) turns them into
// the interactions protocol's user events, sent as app-messages the runner relays into the PAL's room.
// The runner says whether the service transcribes (palkit's hearing message); only then does this start,
// so a bring-your-own bot, or a service that hears the visitor itself, gets no second copy of the words.
// Where nothing can hear the visitor, they are told to type (`hearing_unavailable`), as in a local room.
import { browserRecognises, LocalListener, type HeardMessage, type RecognitionFactory } from './local-listener.js';
import { hearingMessage, readHearingMessage, type HearingMessage, type VisitorUserData } from './hearing-message.js';
import type { Timers } from '../timers.js';

export interface DailyHearingOptions {
  /** Let the PAL hear the visitor through this page's recognition (default true). */
  listen?: boolean;
  /** The speech recognition to use (default: the browser's). */
  createRecognition?: RecognitionFactory;
  expectWordsMs?: number;
  timers?: Timers;
}

export interface DailyHearingPorts {
  /** To everyone in the Daily room (the runner relays it to the PAL). */
  send(data: unknown): void;
  /** Into this page's own transcript, as the visitor's words. */
  show(data: unknown): void;
  notice(code: 'hearing_unavailable' | 'not_heard'): void;
}

export class DailyHearing {
  #listener: LocalListener | null = null;
  #micOn = false;
  #conversationId = '';
  #closed = false;

  constructor(
    private readonly ports: DailyHearingPorts,
    private readonly options: DailyHearingOptions = {},
  ) {}

  /** What the visitor's page tells the room as it joins: whether it can turn speech into words. */
  get userData(): VisitorUserData {
    const recognises = this.options.listen !== false && (this.options.createRecognition ? true : browserRecognises());
    return { palkit: { speech_recognition: recognises } };
  }

  setMicrophone(on: boolean): void {
    this.#micOn = on;
    this.#listener?.setMicrophone(on);
  }

  /** The visitor typed a line: their words reached the PAL, nothing is missing. */
  typed(): void {
    this.#listener?.heard();
  }

  /** An app-message from the room: true when it was palkit's hearing message (consumed here, not the protocol's). */
  receive(data: unknown): boolean {
    const hearing = readHearingMessage(data);
    if (hearing) {
      this.#onHearing(hearing);
      return true;
    }
    this.#follow(data);
    return false;
  }

  close(): void {
    this.#closed = true;
    this.#listener?.close();
    this.#listener = null;
  }

  #onHearing(message: HearingMessage): void {
    const { transcribes, language } = message.properties;
    if (transcribes === undefined || this.#closed || this.options.listen === false) return;
    if (message.conversation_id) this.#conversationId = message.conversation_id;
    if (transcribes) return this.#stopListening();
    if (this.#listener) return; // said again (another visitor page joined): already listening
    this.#listener = new LocalListener((heard) => this.#heard(heard), {
      ...(this.options.createRecognition ? { create: this.options.createRecognition } : {}),
      ...(this.options.expectWordsMs !== undefined ? { expectWordsMs: this.options.expectWordsMs } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
      ...(language ? { lang: language } : {}),
      trouble: (kind) => {
        // Recognition stopped working here: the runner tells the PAL, so it no longer counts on hearing the visitor.
        if (kind === 'lost') this.ports.send(hearingMessage({ speech_recognition: false }, this.#conversationId || undefined));
        this.ports.notice(kind === 'missed' ? 'not_heard' : 'hearing_unavailable');
      },
    });
    if (this.#listener.available) this.#listener.setMicrophone(this.#micOn);
    else this.ports.notice('hearing_unavailable');
  }

  #stopListening(): void {
    this.#listener?.close();
    this.#listener = null;
  }

  /** The PAL's speaking events: recognition pauses while it talks, and owes it words after the visitor cut it off. */
  #follow(raw: unknown): void {
    const listener = this.#listener;
    if (!listener || typeof raw !== 'object' || raw === null) return;
    const message = raw as { event_type?: unknown; properties?: { interrupted?: unknown; role?: unknown } };
    const eventType = message.event_type;
    if (eventType === 'conversation.replica.started_speaking') listener.setPalSpeaking(true);
    if (eventType === 'conversation.replica.stopped_speaking') {
      listener.setPalSpeaking(false);
      if (message.properties?.interrupted === true) listener.expectWords();
    }
    if (eventType === 'conversation.utterance' && message.properties?.role === 'user') listener.heard();
  }

  #heard(message: HeardMessage): void {
    if (this.#closed) return;
    const data = { ...message, ...(this.#conversationId ? { conversation_id: this.#conversationId } : {}) };
    this.ports.send(data);
    this.ports.show(data);
  }
}
