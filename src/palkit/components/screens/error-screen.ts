import { LitElement, html } from 'lit';
import { property } from 'lit/decorators.js';
import { defaultTranslate, type StringKey, type Translate } from '../i18n/strings.js';
import { buttonStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { PalRetryEvent } from '../events/retry.js';

const DESCRIBED = new Set([
  'network_error',
  'deployment_not_found',
  'invalid_deployment_id',
  'origin_not_allowed',
  'join_failed',
  'media_denied',
]);
/** The page's own markup is wrong: the visitor is told so plainly, the page's developer by pal-error. */
const MISCONFIGURED = new Set(['no_deployment', 'invalid_attribute']);
/** Failures a retry cannot fix. */
const FINAL = new Set(['deployment_not_found', 'invalid_deployment_id', 'origin_not_allowed', ...MISCONFIGURED]);

/**
 * @tagname pal-error-screen
 * @summary A failure explained in words, with "Try again" when a retry can help.
 * @csspart retry - The try-again button.
 * @fires {PalRetryEvent} pal-retry - The visitor asked to try again.
 */
export class PalErrorScreen extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() code = '';

  override render() {
    const t = this.t;
    const key = (
      MISCONFIGURED.has(this.code) ? 'error.misconfigured' : DESCRIBED.has(this.code) ? `error.${this.code}` : 'error.generic'
    ) as StringKey;
    return html`
      <h2>${t('error.title')}</h2>
      <p role="alert">${t(key)}</p>
      ${
        FINAL.has(this.code)
          ? null
          : html`<div class="actions"><button class="primary" part="retry" @click=${() => this.dispatchEvent(new PalRetryEvent())}>${t('retry')}</button></div>`
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-error-screen': PalErrorScreen;
  }
}
