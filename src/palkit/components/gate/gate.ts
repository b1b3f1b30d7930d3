import { LitElement, css, html } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { defaultTranslate, type StringKey, type Translate } from '../i18n/strings.js';
import { buttonStyles, fieldStyles, screenStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { loadTurnstile } from './turnstile.js';
import { PalCaptchaEvent } from '../events/captcha.js';
import { PalCaptchaUnavailableEvent } from '../events/captcha-unavailable.js';
import { PalPasswordEvent, type GateAnswer } from '../events/password.js';

/** Start-endpoint codes the gate explains next to the field. */
const GATE_ERRORS = new Set(['invalid_password', 'password_required', 'too_many_attempts', 'captcha_failed', 'captcha_required']);

export type { GateAnswer };

/**
 * @tagname pal-gate
 * @summary The step before a conversation: the deployment password (checked at once) with the bot check
 * (Cloudflare Turnstile, loaded only when the deployment asks for it) above it, or the bot check alone.
 * @csspart form - The password form.
 * @csspart captcha - The box the challenge renders in.
 * @fires {PalPasswordEvent} pal-password - The password was submitted; `detail` is the GateAnswer.
 * @fires {PalCaptchaEvent} pal-captcha - The bot check alone was solved; `detail` is the Turnstile token.
 * @fires {PalCaptchaUnavailableEvent} pal-captcha-unavailable - The bot check could not load or run.
 */
export class PalGate extends LitElement {
  static override styles = [
    tokens,
    screenStyles,
    buttonStyles,
    fieldStyles,
    css`
    form { display: grid; gap: calc(var(--pal-space) * 1.5); width: min(100%, 320px); }
    .waiting:empty { display: none; }
    .captcha { min-height: 65px; display: grid; place-items: center; }
  `,
  ];

  @property({ attribute: false }) t: Translate = defaultTranslate;
  @property() step: 'password' | 'captcha' = 'password';
  /** Code of the last failure (`invalid_password`, `captcha_failed`, …). */
  @property({ attribute: 'error-code' }) errorCode = '';
  @property({ attribute: 'site-key' }) siteKey = '';
  @property() theme: 'light' | 'dark' | 'auto' = 'auto';
  /** The answer is being checked: the button waits. */
  @property({ type: Boolean }) checking = false;
  /** Shown before anything is sent (an empty password). */
  @state() private localError = '';
  /** The visitor submitted before the bot check finished: the password goes as soon as it does. */
  @state() private waitingForCaptcha = false;
  #busy = false;
  #captchaToken: string | undefined;
  @query('.captcha') private captchaBox!: HTMLElement | null;
  #widgetId: string | null = null;

  override render() {
    const t = this.t;
    const code = this.localError || this.errorCode;
    const error = GATE_ERRORS.has(code) ? t(`gate.error.${code}` as StringKey) : '';
    const captcha = html`<div class="captcha" part="captcha"></div>`;
    if (this.step === 'captcha')
      return html`
        <h2>${t('gate.captcha.title')}</h2>
        <p>${t('gate.captcha.description')}</p>
        ${error ? html`<p role="alert">${error}</p>` : null}
        ${captcha}
      `;
    return html`
      <h2>${t('gate.password.title')}</h2>
      <p>${t('gate.password.description')}</p>
      <form part="form" @submit=${this.#submit} novalidate>
        ${this.siteKey ? captcha : null}
        <label>${t('gate.password.label')}
          <input name="password" type="password" autocomplete="current-password" required @input=${() => (this.localError = '')}
            aria-invalid=${error ? 'true' : 'false'} aria-describedby="gate-error" />
        </label>
        <p id="gate-error" role="alert">${error}</p>
        <p class="waiting" role="status">${this.waitingForCaptcha ? t('gate.captcha.waiting') : ''}</p>
        <button class="primary" type="submit" ?disabled=${this.checking} aria-busy=${this.checking || this.waitingForCaptcha ? 'true' : 'false'}>
          ${this.checking || this.waitingForCaptcha ? t('gate.password.checking') : t('gate.password.submit')}</button>
      </form>
    `;
  }

  override updated(changed: Map<string, unknown>): void {
    // A new challenge for each attempt: a token is used once, whatever the answer was.
    const attemptEnded = changed.has('checking') && !this.checking && changed.get('checking') === true;
    if (
      this.siteKey &&
      (changed.has('step') || changed.has('siteKey') || attemptEnded || (this.step === 'captcha' && changed.has('errorCode')))
    )
      void this.#renderCaptcha();
    if (this.step !== 'password') return;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name=password]');
    if (changed.has('step')) input?.focus();
    if (attemptEnded && this.errorCode) input?.select();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#removeCaptcha();
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.checking) return;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name=password]');
    const password = input?.value ?? '';
    this.localError = !password ? 'password_required' : '';
    if (this.localError) {
      input?.focus();
      return;
    }
    // A check that takes a moment (or waits for a click) does not swallow the submission: it is queued.
    if (this.siteKey && !this.#captchaToken) {
      this.waitingForCaptcha = true;
      return;
    }
    this.#send(password);
  }

  #send(password: string): void {
    this.waitingForCaptcha = false;
    const detail: GateAnswer = { password, ...(this.#captchaToken ? { captchaToken: this.#captchaToken } : {}) };
    this.#captchaToken = undefined;
    this.dispatchEvent(new PalPasswordEvent(detail));
  }

  async #renderCaptcha(): Promise<void> {
    if (this.#busy || !this.siteKey) return;
    this.#busy = true;
    try {
      const turnstile = await loadTurnstile();
      await this.updateComplete;
      const box = this.captchaBox;
      if (!box) return;
      this.#removeCaptcha();
      this.#widgetId = turnstile.render(box, {
        sitekey: this.siteKey,
        theme: this.theme,
        callback: (token) => this.#solved(token),
        'expired-callback': () => (this.#captchaToken = undefined),
        'error-callback': () => {
          this.waitingForCaptcha = false;
          this.dispatchEvent(new PalCaptchaUnavailableEvent());
        },
      });
    } catch {
      this.dispatchEvent(new PalCaptchaUnavailableEvent());
    } finally {
      this.#busy = false;
    }
  }

  #solved(token: string): void {
    if (this.step === 'captcha') this.dispatchEvent(new PalCaptchaEvent(token));
    else {
      this.#captchaToken = token;
      if (this.localError === 'captcha_required') this.localError = '';
      const password = this.renderRoot.querySelector<HTMLInputElement>('input[name=password]')?.value ?? '';
      if (this.waitingForCaptcha && password && !this.checking) this.#send(password);
    }
  }

  #removeCaptcha(): void {
    if (this.#widgetId && window.turnstile) window.turnstile.remove(this.#widgetId);
    this.#widgetId = null;
    this.#captchaToken = undefined;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-gate': PalGate;
  }
}
