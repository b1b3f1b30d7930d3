import { LitElement, html } from 'lit';
import { property } from 'lit/decorators.js';
import type { UnavailableReason } from '../../../protocol/public.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { PalRetryEvent } from '../events/retry.js';

/** Reasons where trying again later can help (the others need the site owner). */
const RETRYABLE = new Set(['busy', 'captcha']);

/**
 * @tagname pal-unavailable
 * @summary Why a conversation cannot start right now, in words, with "Try again" where it can help.
 * @csspart retry - The try-again button.
 * @fires {PalRetryEvent} pal-retry - The visitor asked to try again.
 */
export class PalUnavailable extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() reason: UnavailableReason | 'captcha' = 'inactive';

  override render() {
    return html`
      <h2>${this.t('unavailable.title')}</h2>
      <p role="status">${this.t(`unavailable.${this.reason}`)}</p>
      ${
        RETRYABLE.has(this.reason)
          ? html`<div class="actions"><button class="primary" part="retry" @click=${() => this.dispatchEvent(new PalRetryEvent())}>${this.t('retry')}</button></div>`
          : null
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-unavailable': PalUnavailable;
  }
}
