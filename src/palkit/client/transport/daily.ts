// Transport for Daily rooms. daily-js is loaded with import() only when a Daily room is joined, runs in
// call-object mode (we draw the UI), and uses `avoidEval` so pages with a strict CSP work. With palkit's
// runner as the PAL and no recogniser in the service, the browser's recognition hears the visitor
// (daily-hearing.ts), as in a local room.
import type {
  DailyCall,
  DailyEventObjectAppMessage,
  DailyEventObjectFatalError,
  DailyFactoryOptions,
  DailyParticipant,
} from '@daily-co/daily-js';
import { PalClientError } from '../errors.js';
import { DailyHearing, type DailyHearingOptions } from './daily-hearing.js';
import {
  TransportEndedEvent,
  TransportMessageEvent,
  TransportNoticeEvent,
  TransportParticipantsEvent,
  type JoinOptions,
  type Transport,
  type TransportParticipant,
} from './transport.js';

/** The part of daily-js's call object this transport uses (tests implement exactly this). */
export type DailyCallObject = Pick<
  DailyCall,
  | 'join'
  | 'leave'
  | 'destroy'
  | 'on'
  | 'off'
  | 'participants'
  | 'sendAppMessage'
  | 'setLocalAudio'
  | 'setLocalVideo'
  | 'setInputDevicesAsync'
>;

export type CreateCallObject = (options: DailyFactoryOptions) => DailyCallObject;

async function loadDaily(): Promise<CreateCallObject> {
  const { default: Daily } = await import('@daily-co/daily-js');
  return (options) => Daily.createCallObject(options);
}

export class DailyTransport extends EventTarget implements Transport {
  readonly kind = 'daily';
  /** Daily rooms' own recording is not reported to the elements. */
  readonly recording = false;
  #call: DailyCallObject | null = null;
  #left = false;
  #textMode = false;
  readonly #load: () => Promise<CreateCallObject>;
  readonly #hearing: DailyHearing;

  constructor(options: { createCallObject?: CreateCallObject; hearing?: DailyHearingOptions } = {}) {
    super();
    const create = options.createCallObject;
    this.#load = create ? async () => create : loadDaily;
    this.#hearing = new DailyHearing(
      {
        send: (data) => this.#call?.sendAppMessage(data, '*'),
        show: (data) => this.dispatchEvent(new TransportMessageEvent(data, this.#localId())),
        notice: (code) => this.dispatchEvent(new TransportNoticeEvent(code, '')),
      },
      options.hearing,
    );
  }

  get participants(): TransportParticipant[] {
    if (!this.#call) return [];
    // In text mode the PAL's voice is not played (its words still arrive as captions).
    return Object.values(this.#call.participants())
      .map(toParticipant)
      .map((p) => (this.#textMode ? { ...p, audioTrack: null } : p));
  }

  async join(options: JoinOptions): Promise<void> {
    let create: CreateCallObject;
    try {
      create = await this.#load();
    } catch {
      throw new PalClientError('join_failed', 'Could not load the video call library.');
    }
    if (this.#left) throw new PalClientError('aborted', 'Cancelled.');
    this.#textMode = options.textMode === true;
    const call = create({
      dailyConfig: { avoidEval: true },
      subscribeToTracksAutomatically: true,
      startVideoOff: !options.startVideo,
      startAudioOff: !options.startAudio,
      ...(options.audioDeviceId ? { audioSource: options.audioDeviceId } : {}),
      ...(options.videoDeviceId ? { videoSource: options.videoDeviceId } : {}),
    });
    this.#call = call;
    const changed = (): void => void this.dispatchEvent(new TransportParticipantsEvent());
    for (const name of ['participant-joined', 'participant-updated', 'participant-left', 'track-started', 'track-stopped'] as const)
      call.on(name, changed);
    call.on('app-message', (event: DailyEventObjectAppMessage) => {
      if (!this.#hearing.receive(event.data)) this.dispatchEvent(new TransportMessageEvent(event.data, event.fromId));
    });
    call.on('left-meeting', () => {
      if (!this.#left) this.#finish('left', false);
    });
    call.on('error', (event: DailyEventObjectFatalError) => {
      if (!this.#left) this.#finish(event.errorMsg, true);
    });
    try {
      // Whether this page can recognise the visitor's speech, known to palkit's runner before the PAL greets.
      const userData = this.#hearing.userData;
      await call.join({ url: options.url, token: options.token, ...(options.userName ? { userName: options.userName } : {}), userData });
    } catch (error) {
      await this.#destroy();
      throw new PalClientError('join_failed', error instanceof Error ? error.message : 'Could not join the Daily room.');
    }
    this.#hearing.setMicrophone(options.startAudio);
    changed();
  }

  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    try {
      await this.#call?.leave();
    } finally {
      await this.#destroy();
    }
  }

  sendAppMessage(data: unknown): void {
    // A typed line is the visitor's words too: nothing is missing any more.
    if ((data as { event_type?: unknown } | null)?.event_type === 'conversation.respond') this.#hearing.typed();
    this.#call?.sendAppMessage(data, '*');
  }

  setMicrophoneEnabled(enabled: boolean): void {
    this.#call?.setLocalAudio(enabled);
    this.#hearing.setMicrophone(enabled);
  }

  setTextMode(on: boolean): void {
    this.#textMode = on;
    this.dispatchEvent(new TransportParticipantsEvent());
  }

  setCameraEnabled(enabled: boolean): void {
    this.#call?.setLocalVideo(enabled);
  }

  async setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    await this.#call?.setInputDevicesAsync({
      ...(devices.audioDeviceId ? { audioDeviceId: devices.audioDeviceId } : {}),
      ...(devices.videoDeviceId ? { videoDeviceId: devices.videoDeviceId } : {}),
    });
  }

  #finish(reason: string, failed: boolean): void {
    this.#left = true;
    void this.#destroy();
    this.dispatchEvent(new TransportEndedEvent(reason, failed));
  }

  #localId(): string {
    return this.#call?.participants().local?.session_id ?? 'local';
  }

  async #destroy(): Promise<void> {
    this.#hearing.close();
    const call = this.#call;
    this.#call = null;
    await call?.destroy();
  }
}

function toParticipant(p: DailyParticipant): TransportParticipant {
  const playable = (state: { state: string; persistentTrack?: MediaStreamTrack } | undefined): MediaStreamTrack | null =>
    state && state.state === 'playable' ? (state.persistentTrack ?? null) : null;
  return {
    id: p.session_id,
    name: p.user_name,
    role: p.local ? 'visitor' : 'pal',
    local: p.local,
    videoTrack: playable(p.tracks.video),
    audioTrack: p.local ? null : playable(p.tracks.audio),
  };
}
