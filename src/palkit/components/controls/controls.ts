import { LitElement, css, html, svg } from 'lit';
import { property, state } from 'lit/decorators.js';
import { listDevices, type DeviceLists } from '../../client/media.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, fieldStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { PalControlEvent, type ControlAction } from '../events/control.js';

export type { ControlAction };

const icon = (path: string) =>
  svg`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor"><path d=${path}></path></svg>`;
const ICONS = {
  mic: 'M12 14a3 3 0 0 0 3-3V5a3 3 0 1 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z',
  camera: 'M17 10.5V7a1 1 0 0 0-1-1H4a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-3.5l4 4v-11z',
  end: 'M12 9c-1.6 0-3.1.3-4.6.7v3.1c0 .4-.2.7-.6.9-1 .5-1.9 1.1-2.7 1.8-.2.2-.4.3-.7.3s-.5-.1-.7-.3L.3 13.1c-.2-.2-.3-.4-.3-.7s.1-.5.3-.7C3.3 8.8 7.4 7 12 7s8.7 1.8 11.7 4.7c.2.2.3.4.3.7s-.1.5-.3.7l-2.5 2.4c-.2.2-.4.3-.7.3s-.5-.1-.7-.3c-.8-.7-1.7-1.3-2.7-1.8-.3-.2-.6-.5-.6-.9V9.7C15.1 9.3 13.6 9 12 9z',
  captions:
    'M19 4H5a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm-8 7H9.5v-.5h-2v3h2V13H11v1a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1v-4a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v1zm7 0h-1.5v-.5h-2v3h2V13H18v1a1 1 0 0 1-1 1h-3a1 1 0 0 1-1-1v-4a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v1z',
  chat: 'M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2z',
  devices:
    'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7 7 0 0 0-1.7-1L15 3h-4l-.4 2.9a7 7 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7 7 0 0 0 1.7 1L11 21h4l.4-2.9a7 7 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z',
};

/**
 * @tagname pal-controls
 * @summary Call controls: microphone, camera, devices, captions, chat, end.
 * @csspart controls - The toolbar.
 * @csspart end - The end button.
 * @fires {PalControlEvent} pal-control - A control was pressed (`detail.action`), or a device picked (`device`, with `detail.device`).
 */
export class PalControls extends LitElement {
  static override styles = [
    tokens,
    buttonStyles,
    fieldStyles,
    css`
    /* Sized by the surface it is in (an embed in a 320 px page is narrower than the page), not the viewport. */
    :host { display: block; container-type: inline-size; }
    [role='toolbar'] {
      display: flex; align-items: center; gap: var(--pal-space); justify-content: center; flex-wrap: nowrap; padding: var(--pal-space);
      padding-bottom: max(var(--pal-space), env(safe-area-inset-bottom));
    }
    /* Every control, the devices menu's summary included, is the same 44 px circle. */
    button, summary.button { box-sizing: border-box; flex: none; width: 44px; height: 44px; min-height: 44px; padding: 0; border-radius: 50%; }
    /* Six controls fit a 320 px phone: 6 × 44 px and five narrower gaps; narrower still, the circles shrink to fit. */
    @container (max-width: 359px) { [role='toolbar'] { gap: 6px; padding-inline: 4px; } }
    @container (max-width: 301px) { button, summary.button { width: calc((100cqi - 38px) / 6); height: auto; min-height: 0; aspect-ratio: 1; } }
    /*
     * Danger controls draw their icon in the surface colour: white on the light theme's dark red (5.6:1),
     * near-black on the dark theme's light red (8:1). A white icon on the dark theme's red was 2:1.
     */
    button[aria-pressed='false'].toggle-media { background: var(--pal-color-danger); color: var(--pal-color-surface); border-color: transparent; }
    button[aria-pressed='true'].toggle-view { background: var(--pal-color-accent); color: var(--pal-color-accent-contrast); }
    .end { background: var(--pal-color-danger); color: var(--pal-color-surface); border-color: transparent; }
    details { position: relative; }
    summary { list-style: none; }
    summary::-webkit-details-marker { display: none; }
    .menu {
      position: absolute; bottom: calc(100% + var(--pal-space)); left: 50%; transform: translateX(-50%);
      display: grid; gap: var(--pal-space); padding: calc(var(--pal-space) * 1.5); width: 240px;
      background: var(--pal-color-surface); border: 1px solid var(--pal-color-border); border-radius: var(--pal-radius); box-shadow: var(--pal-shadow);
    }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property({ type: Boolean, attribute: 'microphone-on' }) microphoneOn = true;
  @property({ type: Boolean, attribute: 'camera-on' }) cameraOn = true;
  @property({ type: Boolean, attribute: 'captions-on' }) captionsOn = false;
  @property({ type: Boolean, attribute: 'chat-on' }) chatOn = false;
  @property({ attribute: false }) audioDeviceId = '';
  @property({ attribute: false }) videoDeviceId = '';
  @state() private devices: DeviceLists = { microphones: [], cameras: [] };

  override render() {
    const t = this.t;
    const fire = (action: ControlAction) => () => this.dispatchEvent(new PalControlEvent({ action }));
    return html`
      <div role="toolbar" part="controls" aria-label=${t('controls.label')}>
        <button class="toggle-media" aria-pressed=${this.microphoneOn ? 'true' : 'false'} aria-label=${t('haircheck.microphone')} @click=${fire('microphone')}>${icon(ICONS.mic)}</button>
        <button class="toggle-media" aria-pressed=${this.cameraOn ? 'true' : 'false'} aria-label=${t('haircheck.camera')} @click=${fire('camera')}>${icon(ICONS.camera)}</button>
        <details @toggle=${this.#loadDevices} @keydown=${this.#closeMenuOnEscape}>
          <summary class="button" role="button" aria-label=${t('controls.devices')}>${icon(ICONS.devices)}</summary>
          <div class="menu">
            ${this.#picker(t('haircheck.camera'), this.devices.cameras, this.videoDeviceId, 'videoDeviceId')}
            ${this.#picker(t('haircheck.microphone'), this.devices.microphones, this.audioDeviceId, 'audioDeviceId')}
          </div>
        </details>
        <button class="toggle-view" aria-pressed=${this.captionsOn ? 'true' : 'false'} aria-label=${t('controls.captions')} @click=${fire('captions')}>${icon(ICONS.captions)}</button>
        <button class="toggle-view" aria-pressed=${this.chatOn ? 'true' : 'false'} aria-label=${t('controls.chat')} @click=${fire('chat')}>${icon(ICONS.chat)}</button>
        <button class="end" part="end" aria-label=${t('controls.end')} @click=${fire('end')}>${icon(ICONS.end)}</button>
      </div>
    `;
  }

  /** Escape closes the open devices menu (only it) and returns focus to its button. */
  #closeMenuOnEscape(event: KeyboardEvent): void {
    const details = event.currentTarget as HTMLDetailsElement;
    if (event.key !== 'Escape' || !details.open) return;
    event.preventDefault();
    event.stopPropagation();
    details.open = false;
    details.querySelector('summary')?.focus();
  }

  /** Focuses the first control (the microphone), as the call screen's main control. */
  focusFirst(): void {
    this.renderRoot.querySelector<HTMLButtonElement>('button')?.focus();
  }

  /** Moves focus to a control (after a panel it opened closes). */
  focusControl(action: 'chat' | 'captions'): void {
    this.renderRoot.querySelectorAll<HTMLButtonElement>('button.toggle-view')[action === 'captions' ? 0 : 1]?.focus();
  }

  async #loadDevices(event: Event): Promise<void> {
    if ((event.target as HTMLDetailsElement).open) this.devices = await listDevices();
  }

  #picker(label: string, devices: MediaDeviceInfo[], selected: string, key: 'audioDeviceId' | 'videoDeviceId') {
    return html`<label>${label}
      <select ?disabled=${devices.length === 0} @change=${(e: Event) => this.dispatchEvent(new PalControlEvent({ action: 'device', device: { [key]: (e.target as HTMLSelectElement).value } }))}>
        ${devices.map((d, i) => html`<option value=${d.deviceId} ?selected=${d.deviceId === selected}>${d.label || `${label} ${i + 1}`}</option>`)}
      </select>
    </label>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-controls': PalControls;
  }
}
