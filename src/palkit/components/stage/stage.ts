import { LitElement, css, html, nothing, svg } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { unlockAudio } from '../../client/media.js';
import { audioHeld } from '../../client/audio-held.js';
import { show } from '../../client/media/shown-tracks.js';
import type { TransportParticipant } from '../../client/transport/transport.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';

const cameraOff = svg`<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M15 10.5l5-3v9l-5-3M4 7h9a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zM3 3l18 18"/></svg>`;

/**
 * @tagname pal-stage
 * @summary The call's video: the PAL large, the visitor's self view small, remote audio played.
 * @csspart stage - The stage box.
 * @csspart pal - The PAL's tile (video, or the face thumbnail in the local room).
 * @csspart self - The self view.
 * @csspart recording - The "recorded" badge shown while the call is recorded.
 * @csspart ai-mark - The small "AI" mark on the PAL's video, always shown (as generated videos carry one)
 * unless `aiMark` is false (a deployment's `customization.ai_mark: false`).
 * @cssproperty [--pal-self-view-width=28%] - Width of the self view.
 * @cssproperty [--pal-self-view-max-width=200px] - Largest width of the self view.
 * @cssproperty [--pal-stage-fit=cover] - How the PAL fills the stage (`contain` shows her whole).
 * @cssproperty [--pal-stage-reserve-right=0px] - Room kept free of the PAL at the right (for the self view).
 */
export class PalStage extends LitElement {
  static override styles = [
    tokens,
    buttonStyles,
    css`
    :host { display: block; position: relative; background: var(--pal-color-stage); overflow: hidden; min-height: 0; }
    /* A surface that gives the stage little room (the chat open on a phone) shows the PAL whole, beside the self view. */
    .pal {
      position: absolute; inset: 0 var(--pal-stage-reserve-right, 0px) 0 0; width: calc(100% - var(--pal-stage-reserve-right, 0px)); height: 100%;
      object-fit: var(--pal-stage-fit, cover);
    }
    /* Top right: the self view and, under it, the recording badge (clear of the disclosure banner). */
    .corner {
      position: absolute; right: var(--pal-space); top: var(--pal-space); width: var(--pal-self-view-width, 28%); max-width: var(--pal-self-view-max-width, 200px);
      display: flex; flex-direction: column; align-items: flex-end; gap: calc(var(--pal-space) / 2); pointer-events: none;
    }
    .self {
      width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: var(--pal-radius-small);
      transform: scaleX(-1); box-shadow: var(--pal-shadow); background: #000;
    }
    /* Camera off: the tile stays, dark, with a crossed-out camera, so the visitor sees why. */
    .self.off { display: grid; place-items: center; transform: none; background: #2a2a33; color: #c9c9d4; }
    .self.off svg { width: 28%; height: auto; }
    .rec.alone { margin-top: 4.5rem; }
    /*
     * The AI mark: on the PAL's picture, at its bottom left (the self view's corner is the visitor's: a mark
     * there read as labelling them); small, legible on any face or background. Captions keep clear of it.
     */
    .ai {
      position: absolute; left: var(--pal-space); bottom: var(--pal-space);
      padding: 0.1em 0.45em; border-radius: 4px; background: rgb(0 0 0 / 0.6); color: #fff;
      font: 700 0.7rem/1.4 var(--pal-font); letter-spacing: 0.04em; box-shadow: 0 0 0 1px rgb(255 255 255 / 0.35);
      /* Its title ("AI-generated video") shows on hover. */
      pointer-events: auto; cursor: default;
    }
    .sound { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); }
    audio { display: none; }
    .rec {
      display: inline-flex; white-space: nowrap; align-items: center; gap: 0.35em;
      padding: 0.2em 0.6em; border-radius: 999px; background: rgb(0 0 0 / 0.6); color: #fff;
      font: 600 0.75rem/1.4 var(--pal-font); letter-spacing: 0.02em;
    }
    .rec::before { content: ''; width: 0.6em; height: 0.6em; border-radius: 50%; background: #e5484d; }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property({ attribute: false }) participants: readonly TransportParticipant[] = [];
  /** Shown for the PAL until its participant has video (the deployment's thumbnail). */
  @property({ attribute: 'fallback-video-url' }) fallbackVideoUrl: string | null = null;
  @property({ attribute: 'fallback-image-url' }) fallbackImageUrl: string | null = null;
  /** The call is recorded: a visible badge says so. */
  @property({ type: Boolean }) recording = false;
  /** The small "AI" mark on the PAL's video; only the owner's explicit setting turns it off. */
  @property({ attribute: false }) aiMark = true;
  @state() private blocked = false;

  override render() {
    const pal = this.participants.find((p) => !p.local && p.role === 'pal') ?? this.participants.find((p) => !p.local);
    const self = this.participants.find((p) => p.local);
    const remoteAudio = this.participants.filter((p) => !p.local && p.audioTrack);
    const tile = this.#palTile(pal);
    const mark = this.aiMark && tile !== nothing;
    return html`
      <div part="stage" role="group" aria-label=${this.t('stage.pal')}>
        ${tile}
        ${mark ? html`<span class="ai" part="ai-mark" role="img" aria-label=${this.t('stage.ai_mark_label')} title=${this.t('stage.ai_mark_label')}>${this.t('stage.ai_mark')}</span>` : nothing}
        ${
          self || this.recording
            ? html`<div class="corner">
              ${
                self?.videoTrack
                  ? html`<video class="self" part="self" data-track=${self.videoTrack.id} autoplay muted playsinline aria-label=${this.t('stage.self')}></video>`
                  : self
                    ? html`<div class="self off" part="self" role="img" aria-label=${this.t('haircheck.camera_off')}>${cameraOff}</div>`
                    : nothing
              }
              ${this.recording ? html`<span class="rec ${self ? '' : 'alone'}" part="recording" role="status">${this.t('stage.recording')}</span>` : nothing}
            </div>`
            : nothing
        }
        ${repeat(
          remoteAudio,
          (p) => p.id,
          (p) => html`<audio data-track=${p.audioTrack!.id} autoplay></audio>`,
        )}
        ${this.blocked ? html`<button class="primary sound" @click=${this.#unblock}>${this.t('stage.sound')}</button>` : nothing}
      </div>
    `;
  }

  override updated(): void {
    const footage = this.renderRoot.querySelector<HTMLVideoElement>('video.pal[src]');
    const pal = this.participants.find((p) => !p.local && p.role === 'pal');
    if (footage && pal?.speaking !== undefined) {
      if (pal.speaking) void footage.play().catch(() => undefined);
      else footage.pause();
    }
    // MediaStreams cannot be bound declaratively; attach each element's track after render.
    const tracks = new Map<string, MediaStreamTrack>();
    for (const p of this.participants) {
      if (p.videoTrack) tracks.set(p.videoTrack.id, p.videoTrack);
      if (p.audioTrack) tracks.set(p.audioTrack.id, p.audioTrack);
    }
    for (const media of this.renderRoot.querySelectorAll<HTMLMediaElement>('[data-track]')) {
      const track = tracks.get(media.dataset.track ?? '');
      const current = media.srcObject instanceof MediaStream ? media.srcObject.getTracks()[0] : undefined;
      if (!track || current === track) continue;
      show(media, new MediaStream([track]));
      media.play().catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotAllowedError') this.blocked = true;
      });
      // The local room's voice comes through Web Audio, which a reload leaves suspended until a gesture. Asked
      // at once, not after play(): WebKit's play() of such a stream never settles, and the visitor would get
      // neither sound nor the button.
      if (media instanceof HTMLAudioElement)
        void audioHeld().then((held) => {
          if (held) this.blocked = true;
        });
    }
  }

  #palTile(pal: TransportParticipant | undefined) {
    const label = pal?.name || this.t('stage.pal');
    if (pal?.videoTrack)
      return html`<video class="pal" part="pal" data-track=${pal.videoTrack.id} autoplay playsinline muted aria-label=${label}></video>`;
    const videoUrl = pal?.videoUrl ?? (pal?.imageUrl ? null : this.fallbackVideoUrl);
    const imageUrl = pal?.imageUrl ?? this.fallbackImageUrl;
    // A trained face's footage moves while the PAL speaks and holds still while it listens.
    const still = pal?.speaking === false;
    if (videoUrl)
      return html`<video class="pal" part="pal" src=${videoUrl} ?autoplay=${!still} muted loop playsinline aria-label=${label}></video>`;
    if (imageUrl) return html`<img class="pal" part="pal" src=${imageUrl} alt=${label} />`;
    return nothing;
  }

  #unblock(): void {
    this.blocked = false;
    // The local room's voice comes through Web Audio, which the same gesture must resume.
    unlockAudio();
    for (const media of this.renderRoot.querySelectorAll<HTMLMediaElement>('audio, video')) void media.play().catch(() => undefined);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-stage': PalStage;
  }
}
