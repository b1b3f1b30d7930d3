// Transport for palkit's own conversation room: a WebSocket at the conversation URL speaking the frames
// of protocol/room.ts. The PAL's tile is its face thumbnail; the visitor's camera is a local self view.
// The room carries no audio: the PAL speaks through speech synthesis (LocalVoice) and the visitor is
// heard through the browser's speech recognition where there is one (LocalListener).
import * as z from 'zod/mini';
import { RoomCloseCode, ServerFrame, roomSocketUrl, type ClientFrame, type Participant } from '../../protocol/room.js';
import { PalClientError } from '../errors.js';
import { LocalListener, type HeardMessage, type RecognitionFactory } from './local-listener.js';
import { LocalVoice } from './local-voice.js';
import {
  TransportEndedEvent, TransportMessageEvent, TransportParticipantsEvent,
  type JoinOptions, type Transport, type TransportParticipant,
} from './transport.js';

export interface LocalTransportOptions {
  createSocket?: (url: string) => WebSocket;
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** Read replica utterances aloud (default true). */
  voice?: boolean;
  /** Turn the visitor's speech into utterances where the browser can (default true). */
  listen?: boolean;
  /** The speech recognition to use (default: the browser's). */
  createRecognition?: RecognitionFactory;
}

export class LocalTransport extends EventTarget implements Transport {
  readonly kind = 'local';
  #socket: WebSocket | null = null;
  #selfId = '';
  #remote = new Map<string, Participant>();
  #stream: MediaStream | null = null;
  #cameraOn = false;
  #micOn = false;
  #left = false;
  #conversationId = '';
  readonly #voice: LocalVoice | null;
  readonly #listener: LocalListener | null;
  readonly #options: LocalTransportOptions;

  constructor(options: LocalTransportOptions = {}) {
    super();
    this.#options = options;
    this.#voice = options.voice === false ? null : new LocalVoice();
    this.#listener = options.listen === false ? null : new LocalListener((message) => this.#heard(message), options.createRecognition ? { create: options.createRecognition } : {});
    if (this.#voice && this.#listener) {
      const listener = this.#listener;
      this.#voice.onSpeaking = (speaking) => listener.setPalSpeaking(speaking);
    }
  }

  get participants(): TransportParticipant[] {
    const self: TransportParticipant = {
      id: this.#selfId || 'local', name: 'You', role: 'visitor', local: true, audioTrack: null,
      videoTrack: this.#cameraOn ? (this.#stream?.getVideoTracks()[0] ?? null) : null,
    };
    const remote = [...this.#remote.values()].map((p): TransportParticipant => ({
      id: p.participant_id, name: p.user_name, role: p.role, local: false, videoTrack: null, audioTrack: null,
      videoUrl: p.video_url ?? null, imageUrl: p.image_url ?? null,
    }));
    return [self, ...remote];
  }

  join(options: JoinOptions): Promise<void> {
    this.#cameraOn = options.startVideo;
    this.#micOn = options.startAudio;
    this.#conversationId = new URL(options.url).pathname.split('/').filter(Boolean).pop() ?? '';
    if (options.startVideo) void this.#openCamera(options.videoDeviceId);
    const socket = (this.#options.createSocket ?? ((url) => new WebSocket(url)))(roomSocketUrl(options.url));
    this.#socket = socket;
    return new Promise<void>((resolve, reject) => {
      let joined = false;
      socket.addEventListener('open', () => {
        this.#sendFrame({ type: 'join', meeting_token: options.token, ...(options.userName ? { user_name: options.userName } : {}) });
      });
      socket.addEventListener('message', (event) => {
        const frame = parseFrame(event.data);
        if (!frame) return;
        if (frame.type === 'joined') {
          joined = true;
          this.#selfId = frame.participant_id;
          for (const p of frame.participants) if (p.participant_id !== frame.participant_id) this.#remote.set(p.participant_id, p);
          this.dispatchEvent(new TransportParticipantsEvent());
          this.#listener?.setMicrophone(this.#micOn);
          resolve();
        } else if (frame.type === 'error' && !joined) {
          reject(new PalClientError('join_failed', frame.message));
        } else {
          this.#onFrame(frame);
        }
      });
      socket.addEventListener('close', (event) => {
        this.#socket = null;
        if (!joined) {
          reject(new PalClientError('join_failed', closeMessage(event.code)));
          return;
        }
        if (this.#left) return;
        this.#finish(event.code === RoomCloseCode.ended ? 'ended' : 'connection lost', event.code !== RoomCloseCode.ended && event.code !== 1000);
      });
    });
  }

  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    if (this.#socket?.readyState === WebSocket.OPEN) this.#sendFrame({ type: 'leave' });
    this.#socket?.close(1000);
    this.#socket = null;
    this.#release();
  }

  sendAppMessage(data: unknown): void {
    this.#sendFrame({ type: 'app-message', data });
  }

  setMicrophoneEnabled(enabled: boolean): void {
    this.#micOn = enabled;
    if (this.#selfId) this.#listener?.setMicrophone(enabled);
  }

  setCameraEnabled(enabled: boolean): void {
    this.#cameraOn = enabled;
    for (const track of this.#stream?.getVideoTracks() ?? []) track.enabled = enabled;
    if (enabled && !this.#stream) void this.#openCamera();
    this.dispatchEvent(new TransportParticipantsEvent());
  }

  /** Speaker mute also silences the synthesized voice. */
  setVoiceMuted(muted: boolean): void {
    if (this.#voice) this.#voice.muted = muted;
    if (muted) this.#voice?.stop();
  }

  async setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    if (devices.videoDeviceId) {
      this.#stopTracks();
      await this.#openCamera(devices.videoDeviceId);
    }
  }

  get microphoneEnabled(): boolean {
    return this.#micOn;
  }

  #onFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'participant-joined':
        this.#remote.set(frame.participant.participant_id, frame.participant);
        this.dispatchEvent(new TransportParticipantsEvent());
        break;
      case 'participant-left':
        this.#remote.delete(frame.participant_id);
        this.dispatchEvent(new TransportParticipantsEvent());
        break;
      case 'app-message':
        this.#voice?.handle(frame.data);
        this.dispatchEvent(new TransportMessageEvent(frame.data, frame.from));
        break;
      case 'ended':
        this.#left = true;
        this.#socket?.close(1000);
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

  async #openCamera(deviceId?: string): Promise<void> {
    const getUserMedia = this.#options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c));
    try {
      const stream = await getUserMedia({ video: deviceId ? { deviceId: { exact: deviceId } } : true });
      if (this.#left) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      this.#stream = stream;
      for (const track of stream.getVideoTracks()) track.enabled = this.#cameraOn;
      this.dispatchEvent(new TransportParticipantsEvent());
    } catch {
      // No camera or permission refused: the call goes on without a self view.
      this.#cameraOn = false;
      this.dispatchEvent(new TransportParticipantsEvent());
    }
  }

  #stopTracks(): void {
    for (const track of this.#stream?.getTracks() ?? []) track.stop();
    this.#stream = null;
  }

  #release(): void {
    this.#stopTracks();
    this.#listener?.close();
    this.#voice?.stop();
  }

  /** What the visitor said goes to the room, and into this page's own transcript (the room relays to the others only). */
  #heard(message: HeardMessage): void {
    if (this.#left) return;
    const data = { ...message, conversation_id: this.#conversationId };
    this.sendAppMessage(data);
    this.dispatchEvent(new TransportMessageEvent(data, this.#selfId));
  }

  #sendFrame(frame: ClientFrame): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(frame));
  }
}

function parseFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = z.safeParse(ServerFrame, JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function closeMessage(code: number): string {
  if (code === RoomCloseCode.invalidToken) return 'The meeting token was not accepted.';
  if (code === RoomCloseCode.notFound) return 'The conversation room does not exist.';
  if (code === RoomCloseCode.ended) return 'The conversation has already ended.';
  return 'Could not connect to the conversation room.';
}
