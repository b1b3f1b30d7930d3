import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';

/**
 * @tagname pal-connecting
 * @summary Shown while the deployment loads or the conversation is being set up.
 * @csspart spinner - The progress indicator.
 */
export class PalConnecting extends LitElement {
  static override styles = [
    tokens,
    screenStyles,
    css`
    .spinner {
      width: 40px; height: 40px; border-radius: 50%;
      border: 4px solid var(--pal-color-border); border-top-color: var(--pal-color-accent);
      animation: spin 1s linear infinite;
    }
    @keyframes spin { to { transform: rotate(360deg); } }
    @media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  /** `loading` (deployment) or `connecting` (conversation). */
  @property() phase: 'loading' | 'connecting' = 'connecting';

  override render() {
    const title = this.phase === 'loading' ? this.t('loading') : this.t('connecting.title');
    return html`
      <div class="spinner" part="spinner" role="progressbar" aria-label=${title}></div>
      <h2 aria-live="polite">${title}</h2>
      ${this.phase === 'connecting' ? html`<p>${this.t('connecting.description')}</p>` : null}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-connecting': PalConnecting;
  }
}
