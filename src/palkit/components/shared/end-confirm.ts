// "End the call?" asked inside the widget's popup or the expanded embed before a live call is hung up
// from the frame (× or Escape), so a stray key or click never ends a conversation. The call's own End
// button ends at once. Escape inside the question keeps the call.
import { css, html } from 'lit';
import type { Translate } from '../i18n/strings.js';

export interface EndConfirmActions {
  end(): void;
  keep(): void;
}

export function renderEndConfirm(t: Translate, actions: EndConfirmActions) {
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    actions.keep();
  };
  return html`
    <div class="end-confirm-backdrop">
      <div class="end-confirm" role="alertdialog" aria-modal="true" aria-labelledby="end-confirm-title"
        aria-describedby="end-confirm-description" @keydown=${onKeydown}>
        <h2 id="end-confirm-title">${t('confirm.end.title')}</h2>
        <p id="end-confirm-description">${t('confirm.end.description')}</p>
        <div class="end-confirm-actions">
          <button class="keep" @click=${actions.keep}>${t('confirm.end.keep')}</button>
          <button class="end-call" @click=${actions.end}>${t('confirm.end.end')}</button>
        </div>
      </div>
    </div>
  `;
}

/** Focuses the safe choice once the question is on screen. */
export function focusKeep(root: ShadowRoot | null): void {
  root?.querySelector<HTMLButtonElement>('.end-confirm .keep')?.focus();
}

export const endConfirmStyles = css`
  .end-confirm-backdrop {
    position: absolute; inset: 0; z-index: 20; display: grid; place-items: center; padding: calc(var(--pal-space) * 2);
    background: rgb(0 0 0 / 0.45);
  }
  .end-confirm {
    display: grid; gap: var(--pal-space); max-width: 320px; padding: calc(var(--pal-space) * 3);
    background: var(--pal-color-surface); color: var(--pal-color-text); border-radius: var(--pal-radius); box-shadow: var(--pal-shadow);
  }
  .end-confirm h2 { margin: 0; font-size: 1.15em; }
  .end-confirm p { margin: 0; color: var(--pal-color-text-muted); }
  .end-confirm-actions { display: flex; flex-wrap: wrap; gap: var(--pal-space); justify-content: flex-end; margin-top: var(--pal-space); }
  .end-confirm-actions button { min-height: 44px; padding: 0 calc(var(--pal-space) * 2); border-radius: var(--pal-radius-small); font: inherit; font-weight: 600; cursor: pointer; }
  .end-confirm .keep { background: var(--pal-color-surface-raised); color: var(--pal-color-text); border: 1px solid var(--pal-color-border); }
  .end-confirm .end-call { background: var(--pal-color-danger); color: #fff; border: 1px solid transparent; }
  .end-confirm button:focus-visible { outline: none; box-shadow: var(--pal-focus-ring); }
`;
