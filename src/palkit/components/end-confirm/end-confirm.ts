// "End the call?" asked inside the widget's popup or the expanded embed before a live call is hung up
// from the frame (× or Escape), so a stray key or click never ends a conversation. The call's own End
// button ends at once. It is shown only during a call, so it comes with the call's parts (define-call.ts)
// and the script tag does not fetch it before one.
import { LitElement, css, html } from 'lit';
import { property } from 'lit/decorators.js';
import { PalEndAnswerEvent } from '../events/end-answer.js';
import { defaultTranslate, type Translate } from '../i18n/strings.js';
import { tokens } from '../styles/tokens.js';

/**
 * @tagname pal-end-confirm
 * @summary "End the call?", over its positioned container: the safe choice (keep talking) has focus, and
 * Escape keeps the call.
 * @fires {PalEndAnswerEvent} pal-end-answer - The visitor answered; `detail.end` is true for "End call".
 */
export class PalEndConfirm extends LitElement {
  static override styles = [
    tokens,
    css`
    :host {
      position: absolute; inset: 0; z-index: 20; display: grid; place-items: center; padding: calc(var(--pal-space) * 2);
      background: rgb(0 0 0 / 0.45);
    }
    .end-confirm {
      display: grid; gap: var(--pal-space); max-width: 320px; padding: calc(var(--pal-space) * 3);
      background: var(--pal-color-surface); color: var(--pal-color-text); border-radius: var(--pal-radius); box-shadow: var(--pal-shadow);
    }
    h2 { margin: 0; font-size: 1.15em; }
    p { margin: 0; color: var(--pal-color-text-muted); }
    .actions { display: flex; flex-wrap: wrap; gap: var(--pal-space); justify-content: flex-end; margin-top: var(--pal-space); }
    button { min-height: 44px; padding: 0 calc(var(--pal-space) * 2); border-radius: var(--pal-radius-small); font: inherit; font-weight: 600; cursor: pointer; }
    .keep { background: var(--pal-color-surface-raised); color: var(--pal-color-text); border: 1px solid var(--pal-color-border); }
    .end-call { background: var(--pal-color-danger); color: #fff; border: 1px solid transparent; }
    button:focus-visible { outline: none; box-shadow: var(--pal-focus-ring); }
  `,
  ];

  /** Translator of the surrounding element (its language and deployment overrides). */
  @property({ attribute: false }) t: Translate = defaultTranslate;

  override render() {
    const t = this.t;
    return html`
      <div class="end-confirm" role="alertdialog" aria-modal="true" aria-labelledby="title" aria-describedby="description" @keydown=${this.#onKeydown}>
        <h2 id="title">${t('confirm.end.title')}</h2>
        <p id="description">${t('confirm.end.description')}</p>
        <div class="actions">
          <button class="keep" @click=${() => this.#answer(false)}>${t('confirm.end.keep')}</button>
          <button class="end-call" @click=${() => this.#answer(true)}>${t('confirm.end.end')}</button>
        </div>
      </div>
    `;
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLButtonElement>('.keep')?.focus();
  }

  /** Escape inside the question keeps the call (and never reaches the popup, which would minimise). */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    this.#answer(false);
  }

  #answer(end: boolean): void {
    this.dispatchEvent(new PalEndAnswerEvent({ end }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-end-confirm': PalEndConfirm;
  }
}
