import { LitElement, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { RatingBody } from '../../../protocol/rating.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles, srOnlyStyles } from '../styles/shared.js';
import { ratingStyles, renderRatingForm, type RatingState } from './rating-form.js';
import { tokens } from '../styles/tokens.js';
import { PalRestartEvent } from '../events/restart.js';

/**
 * @tagname pal-ended
 * @summary After the call: the deployment's `after_call` copy, the visitor's 1–5 star rating (when the call can be
 * rated) and a button that starts over or follows `redirect_url`.
 * @csspart action - The button (or link, with a redirect URL).
 * @csspart rating - The rating form.
 * @fires {PalRestartEvent} pal-restart - The visitor wants a new conversation.
 */
export class PalEnded extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles, srOnlyStyles, ratingStyles];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() heading = '';
  @property() description = '';
  @property({ attribute: 'button-label' }) buttonLabel = '';
  @property({ attribute: 'redirect-url' }) redirectUrl = '';
  /** Sends the visitor's rating; without it no rating is asked for. */
  @property({ attribute: false }) rate: ((rating: RatingBody) => Promise<void>) | null = null;
  @state() private rating: RatingState = { phase: 'open', stars: 0 };

  override render() {
    const t = this.t;
    const label = this.buttonLabel || t('ended.button');
    const safeRedirect = /^https?:\/\//i.test(this.redirectUrl) ? this.redirectUrl : '';
    return html`
      <h2>${this.heading || t('ended.title')}</h2>
      <p>${this.description || t('ended.description')}</p>
      ${this.rate ? renderRatingForm(t, this.rating, { pick: (stars) => (this.rating = { ...this.rating, stars }), send: (r) => void this.#send(r) }) : nothing}
      <div class="actions">
        ${
          safeRedirect
            ? html`<a class="button primary" part="action" href=${safeRedirect} target="_top">${label}</a>`
            : html`<button class="primary" part="action" @click=${() => this.dispatchEvent(new PalRestartEvent())}>${label}</button>`
        }
      </div>
    `;
  }

  async #send(rating: RatingBody): Promise<void> {
    this.rating = { ...this.rating, phase: 'sending' };
    try {
      await this.rate?.(rating);
      this.rating = { ...this.rating, phase: 'sent' };
    } catch {
      this.rating = { ...this.rating, phase: 'failed' };
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-ended': PalEnded;
  }
}
