import { LitElement, html } from 'lit';
import { property } from 'lit/decorators.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';

/**
 * @tagname pal-ended
 * @summary After the call: the deployment's `after_call` copy and a button that starts over or follows `redirect_url`.
 * @csspart action - The button (or link, with a redirect URL).
 * @event restart - (internal) the visitor wants a new conversation.
 */
export class PalEnded extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() heading = '';
  @property() description = '';
  @property({ attribute: 'button-label' }) buttonLabel = '';
  @property({ attribute: 'redirect-url' }) redirectUrl = '';

  override render() {
    const t = this.t;
    const label = this.buttonLabel || t('ended.button');
    const safeRedirect = /^https?:\/\//i.test(this.redirectUrl) ? this.redirectUrl : '';
    return html`
      <h2>${this.heading || t('ended.title')}</h2>
      <p>${this.description || t('ended.description')}</p>
      <div class="actions">
        ${safeRedirect
          ? html`<a class="button primary" part="action" href=${safeRedirect} target="_top">${label}</a>`
          : html`<button class="primary" part="action" @click=${() => this.dispatchEvent(new Event('restart'))}>${label}</button>`}
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-ended': PalEnded;
  }
}
