// What the visitor chose for the call and may change during it: microphone, camera, voice or text,
// the devices, and the notice shown about them. The session is one; a transport, once joined, follows.
import type { JoinOptions, Transport } from './transport/transport.js';

export abstract class CallChoices extends EventTarget {
  microphoneOn = true;
  cameraOn = true;
  /**
   * Text mode: the visitor reads and types; the microphone is off and the PAL's voice is not played (a local
   * room has the PAL write its replies at once). Chosen on the preview, switched during the call, and
   * entered by itself when the microphone is refused or missing.
   */
  textMode = false;
  /** What the visitor should know about the call now (`hearing_unavailable`, `microphone_unavailable`, `voice_unavailable`, `not_heard`, `reconnecting`), or null. */
  notice: string | null = null;
  audioDeviceId: string | undefined;
  videoDeviceId: string | undefined;

  /** The call's transport, once there is one. */
  protected abstract get callTransport(): Transport | null;
  /** Tells the elements to read the session again. */
  protected abstract changed(): void;

  /** Turning the microphone on in text mode is going back to voice. */
  setMicrophone(on: boolean): void {
    if (on && this.textMode) return this.setTextMode(false);
    this.microphoneOn = on;
    this.callTransport?.setMicrophoneEnabled(on);
    this.changed();
  }

  /** Switches between voice and text during the call (or before it). */
  setTextMode(on: boolean): void {
    if (on === this.textMode) return;
    if (on) {
      this.enterTextMode();
      this.callTransport?.setMicrophoneEnabled(false);
      this.callTransport?.setTextMode(true);
    } else {
      this.textMode = false;
      this.callTransport?.setTextMode(false);
      // Back to voice: the microphone opens again (a failure to open it brings text mode back, see the notice).
      if (this.notice === 'microphone_unavailable') this.notice = null;
      this.setMicrophone(true);
    }
    this.changed();
  }

  setCamera(on: boolean): void {
    this.cameraOn = on;
    this.callTransport?.setCameraEnabled(on);
    this.changed();
  }

  dismissNotice(): void {
    this.notice = null;
    this.changed();
  }

  async setDevices(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<void> {
    this.audioDeviceId = devices.audioDeviceId ?? this.audioDeviceId;
    this.videoDeviceId = devices.videoDeviceId ?? this.videoDeviceId;
    await this.callTransport?.setInputDevices(devices);
    this.changed();
  }

  /** The device check's choice, before the call; `textMode` when the visitor goes on by text (no microphone). */
  protected chooseDevices(devices: {
    audioDeviceId?: string;
    videoDeviceId?: string;
    cameraOn?: boolean;
    microphoneOn?: boolean;
    textMode?: boolean;
  }): void {
    if (devices.textMode) this.enterTextMode();
    this.audioDeviceId = devices.audioDeviceId ?? this.audioDeviceId;
    this.videoDeviceId = devices.videoDeviceId ?? this.videoDeviceId;
    if (devices.cameraOn !== undefined) this.cameraOn = devices.cameraOn;
    if (devices.microphoneOn !== undefined) this.microphoneOn = devices.microphoneOn;
  }

  /** Each start chooses afresh: text (no camera either, so no device prompt at all) or voice. */
  protected chooseStart(text: boolean): void {
    if (text) {
      this.enterTextMode();
      this.cameraOn = false;
    } else if (this.textMode) {
      this.textMode = false;
      this.microphoneOn = true;
      this.cameraOn = true;
    }
  }

  /** What the join asks of the devices: the visitor's choices, the camera only where the page allows one. */
  protected joinMedia(
    cameraAllowed: boolean,
  ): Pick<JoinOptions, 'startVideo' | 'startAudio' | 'textMode' | 'audioDeviceId' | 'videoDeviceId'> {
    return {
      startVideo: this.cameraOn && cameraAllowed,
      startAudio: this.microphoneOn && !this.textMode,
      textMode: this.textMode,
      ...(this.audioDeviceId ? { audioDeviceId: this.audioDeviceId } : {}),
      ...(this.videoDeviceId ? { videoDeviceId: this.videoDeviceId } : {}),
    };
  }

  protected enterTextMode(): void {
    this.textMode = true;
    this.microphoneOn = false;
  }
}
