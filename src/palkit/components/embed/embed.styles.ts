import { css } from 'lit';

export const embedStyles = css`
  :host { display: block; width: 100%; height: 100%; container-type: inline-size; }
  .card {
    display: block; position: static; box-sizing: border-box; margin: 0; padding: 0; border: none;
    width: 100%; height: 100%; max-width: none; max-height: none; aspect-ratio: 9 / 16;
    overflow: hidden; border-radius: var(--pal-radius); background: var(--pal-color-surface); color: var(--pal-color-text);
  }
  /* Compact portrait below 900px (56.25rem) of container width, 16:9 above. */
  @container (min-width: 900px) {
    .card { aspect-ratio: 16 / 9; }
  }
  .card > * { height: 100%; }
  /* Expanded into a modal for the call (expand-options). */
  .card:modal {
    width: min(var(--pal-expand-max-width, 1280px), 94vw);
    height: auto; max-height: min(var(--pal-expand-max-height, 100dvh), 94dvh);
    aspect-ratio: var(--pal-expand-aspect, 16 / 9); margin: auto; box-shadow: var(--pal-shadow);
  }
  .card.vertical:modal { width: auto; height: min(var(--pal-expand-max-height, 100dvh), 94dvh); }
  .card.fullscreen:modal { width: 100vw; height: 100dvh; max-width: none; max-height: none; aspect-ratio: auto; border-radius: 0; }
  .card::backdrop { background: rgb(0 0 0 / 0.6); }
`;
