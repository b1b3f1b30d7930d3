import { css } from 'lit';

export const landingStyles = css`
  :host {
    display: block; min-height: 100dvh; box-sizing: border-box; background: var(--pal-color-surface); color: var(--pal-color-text);
    padding: max(24px, env(safe-area-inset-top)) max(24px, env(safe-area-inset-right)) max(24px, env(safe-area-inset-bottom)) max(24px, env(safe-area-inset-left));
    container-type: inline-size;
  }
  .page { display: grid; gap: 32px; max-width: 1280px; margin: 0 auto; min-height: calc(100dvh - 48px); align-content: center; }
  .hero { display: grid; gap: 16px; align-content: center; }
  .logo { max-height: 48px; max-width: 200px; object-fit: contain; }
  h1 { margin: 0; font-size: clamp(1.8rem, 4vw, 3rem); line-height: 1.1; }
  .hero p { margin: 0; color: var(--pal-color-text-muted); font-size: 1.1em; line-height: 1.5; max-width: 40em; }
  .cta { display: flex; gap: var(--pal-space); flex-wrap: wrap; }
  .stage {
    width: 100%; aspect-ratio: 9 / 16; max-height: 85dvh; border-radius: var(--pal-radius); overflow: hidden;
    background: var(--pal-color-surface-raised); box-shadow: var(--pal-shadow); justify-self: center;
  }
  .stage > * { height: 100%; }
  @container (min-width: 700px) {
    .stage { aspect-ratio: 16 / 9; }
  }
  /* split: hero beside the conversation on wide screens. */
  @container (min-width: 960px) {
    .split .page, .spotlight .page { grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); align-items: center; }
    .split .stage { aspect-ratio: 4 / 3; }
    .spotlight .page { grid-template-columns: minmax(0, 1fr) minmax(0, 3fr); }
  }
  .centered .hero, .minimal .hero { justify-items: center; text-align: center; }
  .centered .cta { justify-content: center; }
  .centered .stage, .stacked .stage { max-width: 1000px; }
  .minimal .hero p, .minimal .cta { display: none; }
  .minimal h1 { font-size: 1.4rem; }
`;
