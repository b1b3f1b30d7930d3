// How the PAL hears the visitor in a local room: their microphone goes to the room as audio frames
// (MicrophoneSender; the service detects speech, and transcribes it when it can) and, where the service
// does not transcribe, the browser's recognition turns their words into utterances (LocalListener); with
// neither, the visitor is told to type. A Daily room's counterpart is daily-hearing.ts.
import type { ClientFrame } from '../../../protocol/room.js';
import { sharedAudioContext } from '../media.js';
import type { Timers } from '../timers.js';
import { browserRecognises, LocalListener, type HeardMessage, type RecognitionFactory } from './local-listener.js';
import { MicrophoneSender } from './microphone.js';
import { MICROPHONE_WORKLET_FILE } from './microphone-worklet.js';

export interface LocalHearingOptions {
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** Let the PAL hear the visitor: microphone audio to the room, and the browser's recognition where the service has none (default true). */
  listen?: boolean;
  /** The speech recognition to use (default: the browser's). */
  createRecognition?: RecognitionFactory;
  /**
   * Whether this page's own recognition may hear the visitor where the service does not transcribe
   * (default true). palkit's Daily runner says false: its microphone is a remote visitor's track, and a
   * browser's recognition listens to a device, never to a track.
   */
  pageRecognition?: boolean;
  /** palkit's Daily runner: the visitor's own page (the Daily one) recognises their speech and sends the words. */
  remoteRecognition?: boolean;
  /** How long recognition may take to give words after the visitor cut the PAL off (default 6 s). */
  expectWordsMs?: number;
  /** The clock recognition's waits run on (default: the page's). */
  timers?: Timers;
}

/** The room as the hearing uses it. */
export interface LocalHearingPorts {
  sendBinary(bytes: Uint8Array): void;
  sendFrame(frame: ClientFrame): void;
  notice(code: string): void;
  /** The visitor's words, recognised in this page. */
  heard(message: HeardMessage): void;
}

export class LocalHearing {
  #microphone: MicrophoneSender | null = null;
  #listener: LocalListener | null = null;
  #micOn = false;
  #audioDeviceId: string | undefined;
  readonly #options: LocalHearingOptions;
  readonly #ports: LocalHearingPorts;

  constructor(options: LocalHearingOptions, ports: LocalHearingPorts) {
    this.#options = options;
    this.#ports = ports;
  }

  get microphoneEnabled(): boolean {
    return this.#micOn;
  }

  /** The visitor's choice as the page joins, before the room has admitted them. */
  choose(microphoneOn: boolean, audioDeviceId: string | undefined): void {
    this.#micOn = microphoneOn;
    this.#audioDeviceId = audioDeviceId;
  }

  /** Whether this page can turn the visitor's speech into words itself. */
  pageRecognises(): boolean {
    if (this.#options.pageRecognition === false) return this.#options.remoteRecognition === true;
    return this.#options.createRecognition ? true : browserRecognises();
  }

  /** Starts hearing once the room has admitted the visitor; `roomUrl`'s service also serves the microphone's worklet. */
  start(serviceTranscribes: boolean, language: string | undefined, roomUrl: string): void {
    if (this.#options.listen === false) return;
    // The service that hosts the room also serves the worklet (strict-CSP pages refuse a blob: one).
    const workletUrl = roomUrl ? new URL(`/${MICROPHONE_WORKLET_FILE}`, roomUrl).href : undefined;
    this.#microphone = new MicrophoneSender(sharedAudioContext(), (bytes) => this.#ports.sendBinary(bytes), workletUrl);
    if (this.#micOn) void this.#openMicrophone();
    if (serviceTranscribes) return;
    if (this.#options.pageRecognition === false) return this.#ports.notice('hearing_unavailable');
    this.#listener = new LocalListener((message) => this.#ports.heard(message), {
      ...(this.#options.createRecognition ? { create: this.#options.createRecognition } : {}),
      ...(this.#options.expectWordsMs !== undefined ? { expectWordsMs: this.#options.expectWordsMs } : {}),
      ...(this.#options.timers ? { timers: this.#options.timers } : {}),
      ...(language ? { lang: language } : {}),
      // Never silence after the visitor spoke: they hear the PAL missed it, or that it cannot hear them here.
      trouble: (kind) => {
        // Recognition stopped working here: the PAL is told, so it no longer counts on hearing the visitor.
        if (kind === 'lost') this.#ports.sendFrame({ type: 'hearing', speech_recognition: false });
        this.#ports.notice(kind === 'missed' ? 'not_heard' : 'hearing_unavailable');
      },
    });
    if (this.#listener.available) this.#listener.setMicrophone(this.#micOn);
    else this.#ports.notice('hearing_unavailable');
  }

  /** The visitor turned the microphone on or off; before the room admitted them, only the choice is kept. */
  setMicrophone(enabled: boolean, admitted: boolean): void {
    this.#micOn = enabled;
    if (!admitted) return;
    this.#listener?.setMicrophone(enabled);
    this.#microphone?.setEnabled(enabled);
    if (enabled && this.#microphone && !this.#microphone.track) void this.#openMicrophone();
  }

  /** Another microphone: an open one is reopened on it. */
  async setDevice(audioDeviceId: string | undefined): Promise<void> {
    if (!audioDeviceId || audioDeviceId === this.#audioDeviceId) return;
    this.#audioDeviceId = audioDeviceId;
    if (this.#microphone?.track) await this.#openMicrophone();
  }

  /** The visitor's words reached the PAL (typed, or recognised by the service): nothing is missing any more. */
  heard(): void {
    this.#listener?.heard();
  }

  /** The visitor cut the PAL off (the room heard speech): recognition owes the PAL those words. */
  expectWords(): void {
    this.#listener?.expectWords();
  }

  /** Recognition pauses while the PAL talks, so the PAL never hears itself. */
  setPalSpeaking(speaking: boolean): void {
    this.#listener?.setPalSpeaking(speaking);
  }

  close(): void {
    this.#listener?.close();
    this.#microphone?.close();
  }

  async #openMicrophone(): Promise<void> {
    const getUserMedia = this.#options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
    try {
      await this.#microphone?.open(getUserMedia, this.#audioDeviceId);
      this.#microphone?.setEnabled(this.#micOn);
    } catch {
      this.#ports.notice('microphone_unavailable');
    }
  }
}
