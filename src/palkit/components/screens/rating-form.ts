// The after-call rating: five stars as a radio group (arrow keys move between them, as for any radio
// group), an optional comment and a send button; then a thank-you, or the failure with the form kept.
import { css, html, nothing, svg } from 'lit';
import type { RatingBody } from '../../../protocol/rating.js';
import type { Translate } from '../i18n/strings.js';

export type RatingState = { phase: 'open' | 'sending' | 'sent' | 'failed'; stars: number };

const star = svg`<svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true"><path d="M12 2.8l2.8 5.8 6.4.9-4.6 4.5 1.1 6.3L12 17.3l-5.7 3 1.1-6.3-4.6-4.5 6.4-.9z"/></svg>`;

export function renderRatingForm(t: Translate, state: RatingState, on: { pick(stars: number): void; send(rating: RatingBody): void }) {
  if (state.phase === 'sent') return html`<p class="rating-thanks" role="status">${t('ended.rating.thanks')}</p>`;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const comment = (form.elements.namedItem('comment') as HTMLTextAreaElement).value.trim();
    if (state.stars > 0) on.send({ stars: state.stars, ...(comment ? { comment } : {}) });
  };
  return html`
    <form class="rating" part="rating" @submit=${submit}>
      <fieldset>
        <legend>${t('ended.rating.question')}</legend>
        <div class="stars">
          ${[1, 2, 3, 4, 5].map(
            (n) => html`
            <label class=${n <= state.stars ? 'on' : ''}>
              <input type="radio" name="stars" value=${n} .checked=${n === state.stars} @change=${() => on.pick(n)} />
              <span class="sr-only">${t('ended.rating.stars').replace('{n}', String(n))}</span>${star}
            </label>`,
          )}
        </div>
      </fieldset>
      <label class="comment">${t('ended.rating.comment')}
        <textarea name="comment" rows="2" maxlength="1000"></textarea>
      </label>
      <button type="submit" ?disabled=${state.stars === 0 || state.phase === 'sending'}>${t('ended.rating.submit')}</button>
      ${state.phase === 'failed' ? html`<p role="alert">${t('ended.rating.failed')}</p>` : nothing}
    </form>
  `;
}

export const ratingStyles = css`
  .rating { display: grid; gap: var(--pal-space); justify-items: center; width: min(100%, 22rem); }
  .rating fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: 4px; justify-items: center; }
  .rating legend { font-weight: 600; padding: 0; margin-bottom: 4px; }
  .stars { display: flex; gap: 2px; }
  .stars label { display: grid; place-items: center; width: 44px; height: 44px; border-radius: 50%; cursor: pointer; color: var(--pal-color-border); }
  .stars label.on { color: #e8a400; }
  .stars svg { fill: currentColor; stroke: var(--pal-color-text-muted); stroke-width: 0.6; }
  .stars input { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
  .stars label:has(input:focus-visible) { box-shadow: var(--pal-focus-ring); }
  .rating .comment { display: grid; gap: 4px; width: 100%; font-size: 0.9em; color: var(--pal-color-text-muted); text-align: start; }
  .rating textarea {
    font: inherit; color: var(--pal-color-text); background: var(--pal-color-surface); resize: vertical;
    border: 1px solid var(--pal-color-border); border-radius: var(--pal-radius-small); padding: var(--pal-space);
  }
  .rating textarea:focus-visible { outline: none; box-shadow: var(--pal-focus-ring); }
  .rating-thanks { color: var(--pal-color-success); }
`;
