import { LitElement, css, html } from 'lit';
import { property, query } from 'lit/decorators.js';
import { defaultTranslate, type StringKey, type Translate } from '../i18n/strings.js';
import { buttonStyles, fieldStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { loadTurnstile } from './turnstile.js';

/** Start-endpoint codes the gate explains next to the field. */
const GATE_ERRORS = new Set(['invalid_password', 'password_required', 'too_many_attempts', 'captcha_failed', 'captcha_required']);

/**
 * @tagname pal-gate
 * @summary The steps before a conversation: the deployment password, then the bot check (Cloudflare
 * Turnstile, loaded only when the deployment asks for it).
 * @csspart form - The password form.
 * @csspart captcha - The box the challenge renders in.
 * @event password - (internal) `detail` is the entered password.
 * @event captcha - (internal) `detail` is the Turnstile token.
 * @event captcha-unavailable - (internal) the challenge could not load.
 */
export class PalGate extends LitElement {
  static override styles = [tokens, screenStyles, buttonStyles, fieldStyles, css`
    form { display: grid; gap: calc(var(--pal-space) * 1.5); width: min(100%, 320px); }
    .captcha { min-height: 65px; display: grid; place-items: center; }
  `];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() step: 'password' | 'captcha' = 'password';
  /** Code of the last failure (`invalid_password`, `captcha_failed`, …). */
  @property({ attribute: 'error-code' }) errorCode = '';
  @property({ attribute: 'site-key' }) siteKey = '';
  @property() theme: 'light' | 'dark' | 'auto' = 'auto';
  #busy = false;
  @query('.captcha') private captchaBox!: HTMLElement | null;
  #widgetId: string | null = null;

  override render() {
    const t = this.t;
    const error = GATE_ERRORS.has(this.errorCode) ? t(`gate.error.${this.errorCode}` as StringKey) : '';
    if (this.step === 'captcha')
      return html`
        <h2>${t('gate.captcha.title')}</h2>
        <p>${t('gate.captcha.description')}</p>
        ${error ? html`<p role="alert">${error}</p>` : null}
        <div class="captcha" part="captcha"></div>
      `;
    return html`
      <h2>${t('gate.password.title')}</h2>
      <p>${t('gate.password.description')}</p>
      <form part="form" @submit=${this.#submit} novalidate>
        <label>${t('gate.password.label')}
          <input name="password" type="password" autocomplete="current-password" required
            aria-invalid=${error ? 'true' : 'false'} aria-describedby="gate-error" />
        </label>
        <p id="gate-error" role="alert">${error}</p>
        <button class="primary" type="submit">${t('gate.password.submit')}</button>
      </form>
    `;
  }

  override updated(changed: Map<string, unknown>): void {
    if (this.step === 'captcha' && (changed.has('step') || changed.has('errorCode') || changed.has('siteKey'))) void this.#renderCaptcha();
    if (this.step === 'password' && changed.has('step')) this.renderRoot.querySelector('input')?.focus();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#removeCaptcha();
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.renderRoot.querySelector('input');
    const value = input?.value ?? '';
    if (!value) {
      input?.focus();
      return;
    }
    this.dispatchEvent(new CustomEvent('password', { detail: value }));
  }

  async #renderCaptcha(): Promise<void> {
    if (this.#busy || !this.siteKey) return;
    this.#busy = true;
    try {
      const turnstile = await loadTurnstile();
      await this.updateComplete;
      const box = this.captchaBox;
      if (!box || this.step !== 'captcha') return;
      this.#removeCaptcha();
      this.#widgetId = turnstile.render(box, {
        sitekey: this.siteKey,
        theme: this.theme,
        callback: (token) => this.dispatchEvent(new CustomEvent('captcha', { detail: token })),
        'error-callback': () => this.dispatchEvent(new Event('captcha-unavailable')),
      });
    } catch {
      this.dispatchEvent(new Event('captcha-unavailable'));
    } finally {
      this.#busy = false;
    }
  }

  #removeCaptcha(): void {
    if (this.#widgetId && window.turnstile) window.turnstile.remove(this.#widgetId);
    this.#widgetId = null;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-gate': PalGate;
  }
}
