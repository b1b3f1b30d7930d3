import { LitElement, css, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { MicLevelMeter, listDevices, type DeviceLists } from '../../client/media.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, fieldStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { PalConfirmEvent, type HaircheckChoice } from '../events/confirm.js';

export type { HaircheckChoice };

/**
 * @tagname pal-haircheck
 * @summary The device check before joining: camera preview, live microphone level, device pickers. Without
 * a microphone (refused or missing) it offers to go on by text.
 * @csspart preview - The camera preview.
 * @csspart level - The microphone level bar.
 * @csspart join - The join button.
 * @cssproperty [--pal-haircheck-preview-width=min(100%, 420px)] - Width of the camera preview.
 * @fires {PalConfirmEvent} pal-confirm - Join was pressed; `detail` is the HaircheckChoice.
 */
export class PalHaircheck extends LitElement {
  static override styles = [
    tokens,
    screenStyles,
    buttonStyles,
    fieldStyles,
    css`
    .preview {
      width: var(--pal-haircheck-preview-width, min(100%, 420px)); aspect-ratio: 4 / 3; object-fit: cover;
      border-radius: var(--pal-radius); background: var(--pal-color-stage); transform: scaleX(-1);
    }
    .off { display: grid; place-items: center; color: #fff; transform: none; }
    /* The screen scrolls when the popup is short; its parts keep their size instead of being squeezed (the meter to 0.45 px). */
    :host > * { flex-shrink: 0; }
    .level { width: min(100%, 420px); height: 8px; border-radius: 4px; background: var(--pal-color-border); overflow: hidden; }
    .level > div { height: 100%; width: calc(var(--level, 0) * 100%); background: var(--pal-color-success); transition: width 80ms linear; }
    .pickers { display: grid; gap: var(--pal-space); grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); width: min(100%, 420px); }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() heading = '';
  @property() description = '';
  @property({ attribute: 'button-label' }) buttonLabel = '';
  @property({ type: Boolean, attribute: 'camera-on' }) cameraOn = true;
  @state() private devices: DeviceLists = { microphones: [], cameras: [] };
  @state() private audioDeviceId = '';
  @state() private videoDeviceId = '';
  @state() private failed = false;
  /** The microphone was refused or is missing (the camera may still work). */
  @state() private microphoneMissing = false;
  #stream: MediaStream | null = null;
  #meter: MicLevelMeter | null = null;
  #frame = 0;

  /** The stream under test (exposed for tests and for apps that build their own check). */
  get stream(): MediaStream | null {
    return this.#stream;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#open();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#close();
  }

  override render() {
    const t = this.t;
    return html`
      <h2>${this.heading || t('haircheck.title')}</h2>
      <p role=${this.microphoneMissing ? 'alert' : nothing}>${this.microphoneMissing ? t('haircheck.no_microphone') : this.failed ? t('haircheck.no_access') : this.description || t('haircheck.description')}</p>
      ${
        this.cameraOn
          ? html`<video class="preview" part="preview" autoplay muted playsinline aria-label=${t('stage.self')}></video>`
          : html`<div class="preview off" part="preview">${t('haircheck.camera_off')}</div>`
      }
      ${this.microphoneMissing ? nothing : html`<div class="level" part="level" role="meter" aria-label=${t('haircheck.level')} aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><div></div></div>`}
      <div class="pickers">
        ${this.#picker(t('haircheck.camera'), this.devices.cameras, this.videoDeviceId, (id) => (this.videoDeviceId = id))}
        ${this.#picker(t('haircheck.microphone'), this.devices.microphones, this.audioDeviceId, (id) => (this.audioDeviceId = id))}
      </div>
      <div class="actions">
        <button @click=${this.#toggleCamera} aria-pressed=${this.cameraOn ? 'true' : 'false'}>
          ${this.cameraOn ? t('controls.camera_off') : t('controls.camera_on')}
        </button>
        <button class="primary" part="join" @click=${this.#confirm}>
          ${this.microphoneMissing ? t('haircheck.join_text') : this.buttonLabel || t('haircheck.join')}
        </button>
      </div>
    `;
  }

  override updated(): void {
    const video = this.renderRoot.querySelector('video');
    if (video && video.srcObject !== this.#stream) video.srcObject = this.#stream;
  }

  #picker(label: string, devices: MediaDeviceInfo[], selected: string, choose: (id: string) => void) {
    if (devices.length === 0) return null;
    return html`<label>${label}
      <select @change=${(e: Event) => {
        choose((e.target as HTMLSelectElement).value);
        void this.#open();
      }}>
        ${devices.map((d, i) => html`<option value=${d.deviceId} ?selected=${d.deviceId === selected}>${d.label || `${label} ${i + 1}`}</option>`)}
      </select>
    </label>`;
  }

  async #open(): Promise<void> {
    this.#close();
    const audio: MediaTrackConstraints | boolean = this.audioDeviceId ? { deviceId: { exact: this.audioDeviceId } } : true;
    const video: MediaTrackConstraints | boolean = this.cameraOn
      ? this.videoDeviceId
        ? { deviceId: { exact: this.videoDeviceId } }
        : true
      : false;
    try {
      // Both at once (one permission prompt); when that fails, each alone tells which one is missing.
      const stream =
        (await getUserMedia({ audio, video })) ?? (video ? ((await getUserMedia({ audio })) ?? (await getUserMedia({ video }))) : null);
      if (!stream) throw new Error('no devices');
      if (!this.isConnected) return void stream.getTracks().forEach((track) => track.stop());
      this.#stream = stream;
      this.failed = false;
      this.microphoneMissing = stream.getAudioTracks().length === 0;
      if (this.cameraOn && stream.getVideoTracks().length === 0) this.cameraOn = false;
      this.audioDeviceId ||= stream.getAudioTracks()[0]?.getSettings().deviceId ?? '';
      this.videoDeviceId ||= stream.getVideoTracks()[0]?.getSettings().deviceId ?? '';
      this.devices = await listDevices();
      if (!this.microphoneMissing) {
        this.#meter = new MicLevelMeter(stream);
        this.#tick();
      }
      this.requestUpdate();
    } catch {
      this.failed = true;
      this.microphoneMissing = true;
      this.cameraOn = false;
    }
  }

  #tick = (): void => {
    const level = this.#meter?.level() ?? 0;
    const bar = this.renderRoot.querySelector<HTMLElement>('.level');
    bar?.style.setProperty('--level', level.toFixed(3));
    bar?.setAttribute('aria-valuenow', String(Math.round(level * 100)));
    this.#frame = requestAnimationFrame(this.#tick);
  };

  #close(): void {
    cancelAnimationFrame(this.#frame);
    this.#meter?.dispose();
    this.#meter = null;
    // The preview lets go of the stream before its tracks stop: in WebKitGTK (GNOME Web) stopping a track
    // that a <video> is still showing can deadlock the page for good (its GStreamer video sink waits on the
    // main thread, which waits on the sink), as the device check closed on joining a call.
    const preview = this.renderRoot?.querySelector('video');
    if (preview) preview.srcObject = null;
    for (const track of this.#stream?.getTracks() ?? []) track.stop();
    this.#stream = null;
  }

  #toggleCamera(): void {
    this.cameraOn = !this.cameraOn;
    void this.#open();
  }

  #confirm(): void {
    // The call acquires its own tracks; release ours first so the camera is free.
    this.#close();
    const detail: HaircheckChoice = {
      cameraOn: this.cameraOn,
      microphoneOn: !this.microphoneMissing,
      ...(this.microphoneMissing ? { textMode: true } : {}),
      ...(this.audioDeviceId ? { audioDeviceId: this.audioDeviceId } : {}),
      ...(this.videoDeviceId ? { videoDeviceId: this.videoDeviceId } : {}),
    };
    this.dispatchEvent(new PalConfirmEvent(detail));
  }
}

/** A stream, or null when the browser refuses (no such device, permission denied). */
async function getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream | null> {
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch {
    return null;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-haircheck': PalHaircheck;
  }
}
