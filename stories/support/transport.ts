// An in-memory room transport (no WebRTC, no WebSocket) that records what the element asks of it and lets
// the caller play the room's side: the browser tests drive it by hand, and the stories' StandInRoom
// (stand-in.ts) extends it with a scripted PAL and synthetic media.
import type { RoomTranscriptEntry } from '../../src/protocol/room.js';
import {
  TransportEndedEvent,
  TransportMessageEvent,
  TransportNoticeEvent,
  TransportParticipantsEvent,
  type JoinOptions,
  type Transport,
  type TransportParticipant,
} from '../../src/palkit/client/transport/transport.js';

export class StandInTransport extends EventTarget implements Transport {
  readonly kind = 'local';
  joined: JoinOptions | null = null;
  left = false;
  sent: unknown[] = [];
  mic = true;
  camera = true;
  textMode = false;
  devices: { audioDeviceId?: string; videoDeviceId?: string } = {};
  failJoin: Error | null = null;
  /** Resolve join later (the connecting screen; to test cancel during connecting). */
  holdJoin = false;
  /** The PAL's name as the room lists it, and its face's image. */
  palName = 'PAL';
  palImageUrl: string | null = null;
  /** The conversation so far, as a room sends it on joining. */
  history: RoomTranscriptEntry[] = [];
  #release: (() => void) | null = null;

  get participants(): readonly TransportParticipant[] {
    return [
      { id: 'me', name: 'You', role: 'visitor', local: true, videoTrack: null, audioTrack: null },
      { id: 'pal', name: this.palName, role: 'pal', local: false, videoTrack: null, audioTrack: null, imageUrl: this.palImageUrl },
    ];
  }

  async join(options: JoinOptions): Promise<void> {
    this.joined = options;
    this.textMode = options.textMode === true;
    if (this.failJoin) throw this.failJoin;
    if (this.holdJoin) await new Promise<void>((resolve) => (this.#release = resolve));
    this.admitted(options);
    this.dispatchEvent(new TransportParticipantsEvent());
  }

  /** What the room does as the visitor comes in, before it lists the participants (none here). */
  protected admitted(_options: JoinOptions): void {}

  releaseJoin(): void {
    this.#release?.();
  }

  async leave(): Promise<void> {
    this.left = true;
    this.#release?.();
  }

  sendAppMessage(data: unknown): void {
    this.sent.push(data);
  }

  setMicrophoneEnabled(enabled: boolean): void {
    this.mic = enabled;
  }

  setCameraEnabled(enabled: boolean): void {
    this.camera = enabled;
  }

  setTextMode(on: boolean): void {
    this.textMode = on;
  }

  /** The room says something the visitor should know (e.g. the microphone could not be opened). */
  notice(code: string): void {
    this.dispatchEvent(new TransportNoticeEvent(code, ''));
  }

  async setInputDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    this.devices = devices;
  }

  /** A room message from the PAL. */
  receive(data: unknown): void {
    this.dispatchEvent(new TransportMessageEvent(data, 'pal'));
  }

  /** The room closes from its side (`failed`: it broke rather than ended). */
  endFromRoom(failed = false): void {
    this.dispatchEvent(new TransportEndedEvent('ended', failed));
  }
}
