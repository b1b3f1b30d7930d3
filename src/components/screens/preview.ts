import { LitElement, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { css } from 'lit';

/**
 * @tagname pal-preview
 * @summary The first screen: the PAL's face, the deployment's title and description, and the start button.
 * @csspart base - The screen.
 * @csspart thumbnail - The face preview (video or image).
 * @csspart start - The start button.
 * @event start - (internal, does not leave the shadow root) the visitor pressed start.
 */
export class PalPreview extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles, css`
    .thumbnail { width: min(160px, 40%); aspect-ratio: 1; border-radius: 50%; object-fit: cover; background: var(--pal-color-surface-raised); }
    :host([layout='full-screen']) { justify-content: space-between; align-items: stretch; text-align: start; }
    :host([layout='full-screen']) .actions { justify-content: center; margin-bottom: calc(var(--pal-space) * 2); }
    :host([layout='full-screen']) .thumbnail { display: none; }
  `];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() heading = '';
  @property() description = '';
  @property({ attribute: 'button-label' }) buttonLabel = '';
  @property({ attribute: 'video-url' }) videoUrl: string | null = null;
  @property({ attribute: 'image-url' }) imageUrl: string | null = null;
  @property({ reflect: true }) layout: string | null = null;

  override render() {
    const t = this.t;
    return html`
      <div class="copy" part="base">
        ${this.#thumbnail()}
        <h2>${this.heading || t('preview.title')}</h2>
        <p>${this.description || t('preview.description')}</p>
      </div>
      <div class="actions">
        <button class="primary" part="start" @click=${() => this.dispatchEvent(new Event('start'))}>
          ${this.buttonLabel || t('preview.start')}
        </button>
      </div>
    `;
  }

  #thumbnail() {
    if (this.videoUrl)
      return html`<video class="thumbnail" part="thumbnail" src=${this.videoUrl} autoplay muted loop playsinline aria-hidden="true"></video>`;
    if (this.imageUrl) return html`<img class="thumbnail" part="thumbnail" src=${this.imageUrl} alt=${this.t('preview.thumbnail')} />`;
    return nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-preview': PalPreview;
  }
}
