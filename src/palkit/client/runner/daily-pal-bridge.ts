// The PAL's side of a Daily room, run by palkit's runner in a headless Chromium page (the service's
// live/runner/pages.ts starts it): joins the Daily room as the PAL with daily-js, and once a visitor is
// there, joins the PAL's local room as its bridge with the same LocalTransport a visitor's page uses. The
// PAL's face (drawn by the elements' face code) and voice (the room's audio, played by PalAudioPlayer)
// become the Daily call's video and audio sources; the visitor's Daily audio is the bridge's microphone;
// app-messages go both ways. Either side ending ends the other. Where the service has no recogniser, the
// visitor's own page recognises their words (daily-hearing.ts): the bridge tells it so (palkit's hearing
// message), passes its words on as any app-message, and tells the PAL's room whether it can hear them.
import type { DailyEventObjectAppMessage, DailyEventObjectParticipant, DailyEventObjectTrack, DailyParticipant } from '@daily-co/daily-js';
import type { CreateCallObject, DailyCallObject } from '../transport/daily.js';
import { LocalTransport, type LocalTransportOptions } from '../transport/local.js';
import { hearingMessage, readHearingMessage, userDataRecognises } from '../transport/hearing-message.js';
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
      if (!event.participant.local) this.#visitorCame(start, event.participant);
    });
    call.on('track-started', (event: DailyEventObjectTrack) => {
      if (event.participant && !event.participant.local && event.track.kind === 'audio') this.#heard(event.track);
    });
    call.on('app-message', (event: DailyEventObjectAppMessage) => {
      const hearing = readHearingMessage(event.data);
      // The visitor's recognition stopped working: the PAL's room learns it as from a page's own (a `hearing` frame).
      if (!hearing) this.#bridge?.sendAppMessage(event.data);
      else if (hearing.properties.speech_recognition !== undefined) this.#bridge?.reportHearing(hearing.properties.speech_recognition);
    });
    call.on('left-meeting', () => this.#end('left-meeting', false));
    call.on('error', (event) => this.#end(event?.errorMsg ?? 'daily error', true));
    await call.join({ url: start.dailyUrl, token: start.dailyToken, userName: start.palName });
    this.reports.joined();
    // A visitor already in the room when the PAL arrived.
    const remote = Object.values(call.participants()).find((p) => !p.local);
    if (remote) {
      this.#visitorCame(start, remote);
      const audio = remote.tracks.audio;
      if (audio?.state === 'playable' && audio.persistentTrack) this.#heard(audio.persistentTrack);
    }
  }

  async stop(): Promise<void> {
    this.#end('stopped', false);
  }

  /** The first visitor in the Daily room: the PAL's local room opens for them (the PAL greets them there). */
  #visitorCame(start: BridgeStart, visitor: DailyParticipant): void {
    // A visitor page that joins again (a reload) learns how it is heard, and the PAL whether it can be.
    if (this.#bridge) return this.#hearingChanged(visitor);
    if (this.#ended) return;
    const name = visitor.user_name;
    const bridge = new LocalTransport({
      ...this.options.local,
      getUserMedia: () => this.#visitorStream(),
      // This page's own recognition would listen to a device, not to the visitor's track: the PAL hears the
      // Daily visitor through the service's recogniser, or through the recognition of the visitor's own page.
      pageRecognition: false,
      remoteRecognition: userDataRecognises(visitor.userData),
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
      .then(() => this.#tellHearing())
      .catch((error: unknown) => this.#end(error instanceof Error ? error.message : 'the PAL room refused the bridge', true));
  }

  /** Tells the visitor's page whether the service transcribes them: if not, its own recognition hears them. */
  #tellHearing(): void {
    const hearing = this.#bridge?.roomHearing;
    if (!hearing || this.#ended) return;
    const { transcribes, language, conversationId } = hearing;
    this.#call?.sendAppMessage(hearingMessage({ transcribes, ...(language ? { language } : {}) }, conversationId), '*');
  }

  #hearingChanged(visitor: DailyParticipant): void {
    this.#bridge?.reportHearing(userDataRecognises(visitor.userData));
    this.#tellHearing();
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
