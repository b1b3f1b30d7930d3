import { LitElement, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { css } from 'lit';
import { PalStartEvent, type PalStartDetail } from '../events/start.js';

/**
 * @tagname pal-preview
 * @summary The first screen: the PAL's face, the deployment's title and description, and the start button.
 * @csspart base - The screen.
 * @csspart thumbnail - The face preview (video or image).
 * @csspart start - The start button.
 * @csspart start-text - The "Chat by text" button (starts in text mode, without camera or microphone).
 * @csspart consent - The terms the visitor accepts before starting (where the deployment requires consent).
 * @fires {PalStartEvent} pal-start - The visitor pressed start; `detail.acceptedTerms` is the consent text they
 * accepted, when consent is asked, and `detail.text` is true for "Chat by text".
 */
export class PalPreview extends LitElement {
  static override styles = [
    tokens,
    screenStyles,
    buttonStyles,
    css`
    .thumbnail { width: min(160px, 40%); aspect-ratio: 1; border-radius: 50%; object-fit: cover; background: var(--pal-color-surface-raised); }
    /* The description's box is narrower than a wide screen: centred under the title, as its text is. */
    .copy p { margin-inline: auto; }
    :host([layout='full-screen']) .copy p { margin-inline: 0; }
    :host([layout='full-screen']) { justify-content: space-between; align-items: stretch; text-align: start; }
    :host([layout='full-screen']) .actions { justify-content: center; margin-bottom: calc(var(--pal-space) * 2); }
    :host([layout='full-screen']) .thumbnail { display: none; }
    .consent { display: grid; gap: calc(var(--pal-space) * 0.5); max-width: 40ch; text-align: start; font-size: 0.9em; }
    .consent label { display: flex; gap: var(--pal-space); align-items: flex-start; }
    .consent input { margin-top: 0.2em; width: 1.1em; height: 1.1em; accent-color: var(--pal-color-accent); }
    .consent a { color: inherit; }
    .consent [role=alert]:empty { display: none; }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() heading = '';
  @property() description = '';
  @property({ attribute: 'button-label' }) buttonLabel = '';
  @property({ attribute: 'video-url' }) videoUrl: string | null = null;
  @property({ attribute: 'image-url' }) imageUrl: string | null = null;
  @property({ reflect: true }) layout: string | null = null;
  /** Set (possibly empty) when the deployment requires consent: the terms shown beside the checkbox. */
  @property({ attribute: false }) consentText: string | null = null;
  @property({ attribute: false }) termsUrl: string | null = null;
  @state() private agreed = false;
  @state() private consentMissing = false;

  override render() {
    const t = this.t;
    return html`
      <div class="copy" part="base">
        ${this.#thumbnail()}
        <h2>${this.heading || t('preview.title')}</h2>
        <p>${this.description || t('preview.description')}</p>
      </div>
      ${this.#consent()}
      <div class="actions">
        <button class="primary" part="start" @click=${() => this.#start(false)}>
          ${this.buttonLabel || t('preview.start')}
        </button>
        <button part="start-text" @click=${() => this.#start(true)}>${t('preview.start_text')}</button>
      </div>
    `;
  }

  #consent() {
    if (this.consentText === null) return nothing;
    const t = this.t;
    return html`<div class="consent" part="consent">
      <label><input type="checkbox" .checked=${this.agreed} aria-invalid=${this.consentMissing ? 'true' : 'false'} aria-describedby="consent-error"
        @change=${(e: Event) => ((this.agreed = (e.target as HTMLInputElement).checked), (this.consentMissing = false))} />
        <span>${this.consentText || t('preview.consent.accept')}</span></label>
      ${this.termsUrl ? html`<a href=${this.termsUrl} target="_blank" rel="noopener noreferrer">${t('preview.consent.terms')}</a>` : nothing}
      <p id="consent-error" role="alert">${this.consentMissing ? t('preview.consent.required') : ''}</p>
    </div>`;
  }

  #start(text: boolean): void {
    if (this.consentText !== null && !this.agreed) {
      this.consentMissing = true;
      this.renderRoot.querySelector<HTMLInputElement>('.consent input')?.focus();
      return;
    }
    const detail: PalStartDetail = { ...(this.consentText === null ? {} : { acceptedTerms: this.consentText }), ...(text ? { text } : {}) };
    this.dispatchEvent(new PalStartEvent(detail));
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
