// The PAL's side of a Daily room, run by palkit's runner in a headless Chromium page (the service's
// live/runner/pages.ts starts it): joins the Daily room as the PAL with daily-js, and once a visitor is
// there, joins the PAL's local room as its bridge with the same LocalTransport a visitor's page uses. The
// PAL's face (drawn by the elements' face code) and voice (the room's audio, played by PalAudioPlayer)
// become the Daily call's video and audio sources; the visitor's Daily audio is the bridge's microphone;
// app-messages go both ways. Either side ending ends the other.
import type { DailyEventObjectAppMessage, DailyEventObjectParticipant, DailyEventObjectTrack } from '@daily-co/daily-js';
import type { CreateCallObject, DailyCallObject } from '../transport/daily.js';
import { LocalTransport, type LocalTransportOptions } from '../transport/local.js';
import { TransportEndedEvent, TransportMessageEvent, TransportParticipantsEvent } from '../transport/transport.js';

export interface BridgeStart {
  dailyUrl: string;
  dailyToken: string;
  palName: string;
  bridgeUrl: string;
  bridgeToken: string;
}

/** What the bridge tells whoever runs it (the runner process, through the page). */
export interface BridgeReports {
  joined(): void;
  published(tracks: Array<'audio' | 'video'>): void;
  ended(reason: string, failed: boolean): void;
}

export interface DailyPalBridgeOptions {
  createCallObject: CreateCallObject;
  /** The bridge's transport options (tests give a socket; the page its defaults). */
  local?: LocalTransportOptions;
}

export class DailyPalBridge {
  #call: DailyCallObject | null = null;
  #bridge: LocalTransport | null = null;
  #published = { audio: false, video: false };
  #ended = false;
  /** The visitor's Daily audio, the bridge's "microphone" (resolved when their track starts). */
  #visitorAudio: MediaStreamTrack | null = null;
  #audioWaiters: Array<(track: MediaStreamTrack) => void> = [];

  constructor(
    private readonly options: DailyPalBridgeOptions,
    private readonly reports: BridgeReports,
  ) {}

  /** The bridge's transport (once a visitor came), for tests and the page's checks. */
  get local(): LocalTransport | null {
    return this.#bridge;
  }

  async start(start: BridgeStart): Promise<void> {
    const call = this.options.createCallObject({
      dailyConfig: { avoidEval: true },
      subscribeToTracksAutomatically: true,
      // No camera or microphone: the PAL's face and voice are given as sources once they exist.
      startVideoOff: true,
      startAudioOff: true,
      videoSource: false,
      audioSource: false,
    });
    this.#call = call;
    call.on('participant-joined', (event: DailyEventObjectParticipant) => {
      if (!event.participant.local) this.#visitorCame(start, event.participant.user_name);
    });
    call.on('track-started', (event: DailyEventObjectTrack) => {
      if (event.participant && !event.participant.local && event.track.kind === 'audio') this.#heard(event.track);
    });
    call.on('app-message', (event: DailyEventObjectAppMessage) => this.#bridge?.sendAppMessage(event.data));
    call.on('left-meeting', () => this.#end('left-meeting', false));
    call.on('error', (event) => this.#end(event?.errorMsg ?? 'daily error', true));
    await call.join({ url: start.dailyUrl, token: start.dailyToken, userName: start.palName });
    this.reports.joined();
    // A visitor already in the room when the PAL arrived.
    const remote = Object.values(call.participants()).find((p) => !p.local);
    if (remote) {
      this.#visitorCame(start, remote.user_name);
      const audio = remote.tracks.audio;
      if (audio?.state === 'playable' && audio.persistentTrack) this.#heard(audio.persistentTrack);
    }
  }

  async stop(): Promise<void> {
    this.#end('stopped', false);
  }

  /** The first visitor in the Daily room: the PAL's local room opens for them (the PAL greets them there). */
  #visitorCame(start: BridgeStart, name: string): void {
    if (this.#bridge || this.#ended) return;
    const bridge = new LocalTransport({
      ...this.options.local,
      getUserMedia: () => this.#visitorStream(),
      // The PAL hears the Daily visitor through the service's recogniser only: this page's own recognition
      // would listen to a device, not to the visitor's track (without one the PAL knows it cannot hear).
      pageRecognition: false,
    });
    this.#bridge = bridge;
    bridge.addEventListener(TransportParticipantsEvent.type, () => void this.#publish());
    bridge.addEventListener(TransportMessageEvent.type, (event) => {
      const { data, from } = event as TransportMessageEvent;
      // The PAL's messages (and the service's) to everyone in the Daily room; the visitor's own echo stays here.
      if (from !== bridge.participants.find((p) => p.local)?.id) this.#call?.sendAppMessage(data, '*');
    });
    bridge.addEventListener(TransportEndedEvent.type, (event) => {
      const { reason, failed } = event as TransportEndedEvent;
      this.#end(reason, failed);
    });
    bridge
      .join({ url: start.bridgeUrl, token: start.bridgeToken, userName: name || 'Visitor', startVideo: false, startAudio: true })
      .catch((error: unknown) => this.#end(error instanceof Error ? error.message : 'the PAL room refused the bridge', true));
  }

  /** The PAL's face and voice, once the bridge has them, become the Daily call's video and audio sources. */
  async #publish(): Promise<void> {
    const pal = this.#bridge?.participants.find((p) => p.role === 'pal');
    const call = this.#call;
    if (!pal || !call) return;
    const sources: { audioSource?: MediaStreamTrack; videoSource?: MediaStreamTrack } = {};
    if (pal.audioTrack && !this.#published.audio) sources.audioSource = pal.audioTrack;
    if (pal.videoTrack && !this.#published.video) sources.videoSource = pal.videoTrack;
    if (!sources.audioSource && !sources.videoSource) return;
    if (sources.audioSource) this.#published.audio = true;
    if (sources.videoSource) this.#published.video = true;
    await call.setInputDevicesAsync(sources);
    if (sources.audioSource) call.setLocalAudio(true);
    if (sources.videoSource) call.setLocalVideo(true);
    this.reports.published([...(sources.audioSource ? ['audio' as const] : []), ...(sources.videoSource ? ['video' as const] : [])]);
  }

  #heard(track: MediaStreamTrack): void {
    this.#visitorAudio = track;
    for (const waiter of this.#audioWaiters.splice(0)) waiter(track);
  }

  /** The bridge's microphone: the visitor's Daily audio, when their track starts. */
  async #visitorStream(): Promise<MediaStream> {
    const track = this.#visitorAudio ?? (await new Promise<MediaStreamTrack>((resolve) => this.#audioWaiters.push(resolve)));
    return new MediaStream([track]);
  }

  #end(reason: string, failed: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    void this.#bridge?.leave();
    const call = this.#call;
    this.#call = null;
    void call
      ?.leave()
      .catch(() => undefined)
      .then(() => call.destroy());
    this.reports.ended(reason, failed);
  }
}
