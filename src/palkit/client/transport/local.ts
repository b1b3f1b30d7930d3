// Transport for palkit's own conversation room: a WebSocket at the conversation URL speaking the frames
// of protocol/room.ts. The PAL's voice arrives as audio frames and is played as a MediaStream track
// (PalAudioPlayer), as a Daily room gives one; the visitor's microphone goes to the room the same way, and
// how the PAL hears them is local-hearing.ts. The visitor's camera is local-camera.ts; what the visitor
// hears of each reply is measured by turn-latency.ts.
import {
  decodeAudioFrame,
  type ClientFrame,
  type Participant,
  type RoomTranscriptEntry,
  type ServerFrame,
} from '../../../protocol/room.js';
import { sharedAudioContext } from '../media.js';
import type { HeardMessage } from './local-listener.js';
import { LocalCamera } from './local-camera.js';
import { LocalHearing, type LocalHearingOptions } from './local-hearing.js';
import { PalAudioPlayer } from './pal-audio.js';
import { PalFace } from './pal-face.js';
import type { Timers } from '../timers.js';
import { RoomConnection, visitorClock, type JoinedFrame, type JoinFrame } from './room-connection.js';
import { measureTurn, turnLatencyFrame, TurnLatencyMeter, type TurnLatencyReport } from './turn-latency.js';
import {
  TransportEndedEvent,
  TransportMessageEvent,
  TransportNoticeEvent,
  TransportParticipantsEvent,
  TransportTurnLatencyEvent,
  type JoinOptions,
  type Transport,
  type TransportParticipant,
} from './transport.js';

/** The hearing's options (local-hearing.ts) and the room's. */
export interface LocalTransportOptions extends LocalHearingOptions {
  createSocket?: (url: string) => WebSocket;
  /** Play the PAL's voice (default true). */
  voice?: boolean;
  /** How camera frames for a perceiving PAL are posted and a trained face's rig is fetched (default: the page's fetch). */
  fetch?: typeof fetch;
  /** The clock the rejoin's backoff, camera frames and recognition's waits run on (default: the page's); tests move their own. */
  timers?: Timers;
}

export class LocalTransport extends EventTarget implements Transport {
  readonly kind = 'local';
  #recording = false;
  #history: readonly RoomTranscriptEntry[] = [];
  #room: RoomConnection | null = null;
  #selfId = '';
  #remote = new Map<string, Participant>();
  #left = false;
  #conversationId = '';
  #player: PalAudioPlayer | null = null;
  #roomUrl = '';
  /** The PAL's face, drawn here while the voice plays (pal-face.ts). */
  #face: PalFace | null = null;
  #palSpeaking = false;
  #textMode = false;
  /** What the room said of its hearing when joined: whether the service transcribes, in which fixed language. */
  #roomHearing: { transcribes: boolean; language?: string; conversationId: string } | null = null;
  readonly #meter = new TurnLatencyMeter((report) => this.#reportLatency(report));
  readonly #options: LocalTransportOptions;
  readonly #camera: LocalCamera;
  readonly #hearing: LocalHearing;

  constructor(options: LocalTransportOptions = {}) {
    super();
    this.#options = options;
    this.#hearing = new LocalHearing(options, {
      sendBinary: (bytes) => this.#room?.sendBinary(bytes),
      sendFrame: (frame) => this.#sendFrame(frame),
      notice: (code) => this.#notice(code),
      heard: (message) => this.#heard(message),
    });
    this.#camera = new LocalCamera({
      getUserMedia: options.getUserMedia,
      fetch: options.fetch,
      timers: options.timers,
      left: () => this.#left,
      changed: () => this.dispatchEvent(new TransportParticipantsEvent()),
    });
  }

  get recording(): boolean {
    return this.#recording;
  }

  get history(): readonly RoomTranscriptEntry[] {
    return this.#history;
  }

  /** Once joined: whether the service transcribes the visitor, the PAL's fixed language, the conversation. */
  get roomHearing(): { transcribes: boolean; language?: string; conversationId: string } | null {
    return this.#roomHearing;
  }

  /** Whether the visitor's words can be recognised where this transport cannot see (the Daily runner's visitor page). */
  reportHearing(speechRecognition: boolean): void {
    this.#sendFrame({ type: 'hearing', speech_recognition: speechRecognition });
  }

  get participants(): TransportParticipant[] {
    const self: TransportParticipant = {
      id: this.#selfId || 'local',
      name: 'You',
      role: 'visitor',
      local: true,
      audioTrack: null,
      videoTrack: this.#camera.track,
    };
    const remote = [...this.#remote.values()].map((p): TransportParticipant => {
      const pal = p.role === 'pal';
      return {
        id: p.participant_id,
        name: p.user_name,
        role: p.role,
        local: false,
        videoTrack: pal ? (this.#face?.track ?? null) : null,
        audioTrack: pal ? (this.#player?.track ?? null) : null,
        videoUrl: pal && this.#face?.unavailable ? null : (p.video_url ?? null),
        imageUrl: p.image_url ?? null,
        ...(pal ? { speaking: this.#palSpeaking } : {}),
      };
    });
    return [self, ...remote];
  }

  join(options: JoinOptions): Promise<void> {
    this.#hearing.choose(options.startAudio, options.audioDeviceId);
    this.#roomUrl = options.url;
    this.#conversationId = new URL(options.url).pathname.split('/').filter(Boolean).pop() ?? '';
    this.#textMode = options.textMode === true;
    this.#camera.start(options.startVideo, options.videoDeviceId);
    if (this.#options.voice !== false) {
      this.#player = new PalAudioPlayer(sharedAudioContext());
      this.#player.probe = this.#meter;
      this.#face = new PalFace({
        player: this.#player,
        fetch: this.#options.fetch ?? globalThis.fetch.bind(globalThis),
        left: () => this.#left,
        faceReady: () => this.#sendFrame({ type: 'face-ready' }),
        changed: () => this.dispatchEvent(new TransportParticipantsEvent()),
        unavailable: (message) => this.dispatchEvent(new TransportNoticeEvent('face_unavailable', message)),
      });
      if (options.faceRigUrl) this.#face.prefetch(options.faceRigUrl);
    }
    const joinFrame: JoinFrame = {
      type: 'join',
      meeting_token: options.token,
      ...(options.userName ? { user_name: options.userName } : {}),
      ...visitorClock(),
      // This page draws the PAL's face (where it has one) and says when it is shown: the PAL greets then.
      ...(this.#player ? { face_ready: true } : {}),
      // Whether this page can turn the visitor's speech into words: where neither it nor the service can, the PAL offers no speech.
      ...(this.#options.listen === false ? {} : { speech_recognition: this.#hearing.pageRecognises() }),
    };
    this.#room = new RoomConnection(
      options.url,
      () => ({ ...joinFrame, ...(this.#textMode ? { text_mode: true } : {}) }),
      {
        joined: (frame, again) => this.#joined(frame, again, options.token),
        frame: (frame) => this.#onFrame(frame),
        audio: (data) => this.#onAudio(data),
        lost: (reason, failed) => this.#finish(reason, failed),
        notice: (code) => this.#notice(code),
      },
      this.#options.createSocket,
      this.#options.timers,
    );
    return this.#room.open();
  }

  #joined(frame: JoinedFrame, again: boolean, token: string): void {
    this.#selfId = frame.participant_id;
    this.#recording = frame.recording === true;
    this.#remote.clear();
    for (const p of frame.participants) if (p.participant_id !== frame.participant_id) this.#remote.set(p.participant_id, p);
    this.#showFace();
    this.dispatchEvent(new TransportParticipantsEvent());
    if (again) return; // hearing, camera frames and the history are under way since the first join
    this.#history = frame.transcript ?? [];
    this.#roomHearing = {
      transcribes: frame.transcribes === true,
      ...(frame.language ? { language: frame.language } : {}),
      conversationId: frame.conversation_id,
    };
    this.#hearing.start(frame.transcribes === true, frame.language, this.#roomUrl);
    if (frame.perception) this.#camera.perceive(frame.perception, token);
  }

  async leave(options: { end?: boolean } = {}): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    this.#sendFrame({ type: 'leave', ...(options.end ? { end: true } : {}) });
    this.#room?.close();
    this.#release();
  }

  sendAppMessage(data: unknown): void {
    // A typed line is the visitor's words too: nothing is missing any more.
    if (typeof data === 'object' && data !== null && (data as { event_type?: unknown }).event_type === 'conversation.respond')
      this.#hearing.heard();
    this.#sendFrame({ type: 'app-message', data });
    // A typed turn ends when it is sent: the reply is measured from here.
    if (eventTypeOf(data) === 'conversation.respond') this.#meter.turnEnded('text');
  }

  setMicrophoneEnabled(enabled: boolean): void {
    this.#hearing.setMicrophone(enabled, this.#selfId !== '');
  }

  setTextMode(on: boolean): void {
    if (on === this.#textMode) return;
    this.#textMode = on;
    if (on) this.#player?.flush();
    if (this.#selfId) this.#sendFrame({ type: 'text-mode', on });
  }

  setCameraEnabled(enabled: boolean): void {
    this.#camera.setEnabled(enabled);
  }

  async setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    await this.#hearing.setDevice(devices.audioDeviceId);
    if (devices.videoDeviceId) await this.#camera.switchTo(devices.videoDeviceId);
  }

  get microphoneEnabled(): boolean {
    return this.#hearing.microphoneEnabled;
  }

  #onFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'participant-joined':
        this.#remote.set(frame.participant.participant_id, frame.participant);
        this.#showFace();
        this.dispatchEvent(new TransportParticipantsEvent());
        break;
      case 'participant-left':
        this.#remote.delete(frame.participant_id);
        this.dispatchEvent(new TransportParticipantsEvent());
        break;
      case 'app-message':
        this.#followSpeaking(frame.data);
        measureTurn(this.#meter, eventTypeOf(frame.data), frame.data, () => this.#player?.remainingMs() ?? 0);
        this.dispatchEvent(new TransportMessageEvent(frame.data, frame.from));
        break;
      case 'audio-flush':
        this.#player?.flush();
        break;
      case 'notice':
        this.dispatchEvent(new TransportNoticeEvent(frame.code, frame.message));
        break;
      case 'ended':
        this.#left = true;
        this.#room?.close();
        this.#finish(frame.reason, false);
        break;
      default:
        break;
    }
  }

  #finish(reason: string, failed: boolean): void {
    this.#release();
    this.dispatchEvent(new TransportEndedEvent(reason, failed));
  }

  #release(): void {
    this.#meter.close();
    this.#camera.stop();
    this.#hearing.close();
    this.#player?.close();
    this.#face?.stop();
  }

  /** A PAL with a built-in or a trained face gets it drawn here, moving with the voice being heard. */
  #showFace(): void {
    this.#face?.show([...this.#remote.values()].find((p) => p.role === 'pal'));
  }

  /**
   * The PAL's speaking events: a trained face's footage moves only while the PAL talks, and the browser's
   * recognition pauses meanwhile, so the PAL never hears itself.
   */
  #followSpeaking(raw: unknown): void {
    const message =
      typeof raw === 'object' && raw !== null
        ? (raw as { event_type?: unknown; properties?: { interrupted?: unknown; role?: unknown } })
        : {};
    const eventType = message.event_type;
    // The visitor cut the PAL off (the room heard speech): recognition owes the PAL those words.
    if (eventType === 'conversation.replica.stopped_speaking' && message.properties?.interrupted === true) this.#hearing.expectWords();
    if (eventType === 'conversation.utterance' && message.properties?.role === 'user') this.#hearing.heard();
    const speaking =
      eventType === 'conversation.replica.started_speaking'
        ? true
        : eventType === 'conversation.replica.stopped_speaking'
          ? false
          : this.#palSpeaking;
    if (speaking === this.#palSpeaking) return;
    this.#palSpeaking = speaking;
    this.#hearing.setPalSpeaking(speaking);
    this.dispatchEvent(new TransportParticipantsEvent());
  }

  /** To the page (`pal-turn-latency`) and to the service, which keeps it with the conversation. */
  #reportLatency(report: TurnLatencyReport): void {
    if (this.#left) return;
    this.#sendFrame(turnLatencyFrame(report));
    this.dispatchEvent(new TransportTurnLatencyEvent(report));
  }

  #onAudio(data: ArrayBuffer): void {
    const frame = decodeAudioFrame(data);
    if (frame && !this.#left && !this.#textMode) this.#player?.play(frame);
  }

  #notice(code: string): void {
    this.dispatchEvent(new TransportNoticeEvent(code, ''));
  }

  /** What the visitor said goes to the room, and into this page's own transcript (the room relays to the others only). */
  #heard(message: HeardMessage): void {
    if (this.#left) return;
    const data = { ...message, conversation_id: this.#conversationId };
    this.sendAppMessage(data);
    this.dispatchEvent(new TransportMessageEvent(data, this.#selfId));
  }

  #sendFrame(frame: ClientFrame): void {
    this.#room?.send(frame);
  }
}

function eventTypeOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { event_type?: unknown }).event_type : undefined;
}
