import { css } from 'lit';

export const conversationStyles = css`
  :host {
    display: block;
    position: relative;
    height: 100%;
    min-height: 0;
    /* A size container: the canvas card's place (beside or under the stage) follows the surface's shape. */
    container-type: size;
    background: var(--pal-color-stage);
    color: var(--pal-color-text);
  }
  .ended {
    display: grid; place-content: center; height: 100%; box-sizing: border-box; padding: var(--pal-space); text-align: center;
    font-family: var(--pal-font); background: var(--pal-color-surface); color: var(--pal-color-text);
  }
  .ended h2 { margin: 0 0 0.4em; font-size: 1.25rem; }
  .ended p { margin: 0; color: var(--pal-color-text-muted); }
  /*
   * Narrow or portrait: stage, then the canvas card as a sheet the stage makes room for, the notice and the
   * controls. An empty pal-canvas takes no room (its row is auto), so the stage has it all until a card shows.
   */
  .layout { display: grid; grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(0, 1fr) auto auto auto; height: 100%; }
  .main { position: relative; display: grid; grid-template-columns: minmax(0, 1fr); min-height: 0; }
  pal-stage { position: absolute; inset: 0; }
  .overlays { position: absolute; inset: 0; z-index: 2; display: flex; flex-direction: column; pointer-events: none; }
  /* The banner leaves the top-right column to the self view (same width as pal-stage's). */
  pal-disclosure { flex: none; margin-right: calc(min(var(--pal-self-view-width, 28%), 200px) + var(--pal-space)); }
  /* The sheet: at most half the surface (its content scrolls inside), the stage keeps the rest. */
  pal-canvas { z-index: 3; max-height: 50cqh; background: var(--pal-color-surface); }
  pal-canvas[has-card] { box-shadow: 0 -4px 16px rgb(0 0 0 / 0.2); }
  /*
   * Wide and landscape (the 16:9 embed, the landing page, a landscape phone): the card is a side panel
   * the whole height of the surface, on the side the PAL asked for; the stage and controls keep the rest.
   */
  @container (min-width: 600px) and (orientation: landscape) {
    .layout { grid-template-columns: auto minmax(0, 1fr) auto; grid-template-rows: minmax(0, 1fr) auto auto; }
    .layout > * { grid-column: 2; }
    .layout > pal-canvas { grid-column: 3; grid-row: 1 / -1; max-height: none; }
    .layout > pal-canvas[card-side='left'] { grid-column: 1; }
    pal-canvas[has-card] { width: min(var(--pal-canvas-card-width, 340px), 45cqw); box-shadow: none; border-left: 1px solid var(--pal-color-border); }
    pal-canvas[has-card][card-side='left'] { border-left: 0; border-right: 1px solid var(--pal-color-border); }
  }
  pal-transcript[hidden] { display: none; }
  pal-transcript.captions { position: absolute; left: 0; right: 0; bottom: 0; max-height: 40%; z-index: 1; pointer-events: none; }
  pal-transcript.panel { position: absolute; left: 0; right: 0; bottom: 0; height: 60%; z-index: 3; background: var(--pal-color-surface); }
  /*
   * Narrow, chat open: the stage keeps the part above the panel and shows the PAL whole there (never cropped
   * to her forehead), beside a smaller self view that no longer covers her.
   */
  .main.chat pal-stage {
    bottom: 60%;
    --pal-stage-fit: contain; --pal-self-view-width: 22%; --pal-self-view-max-width: 96px;
    --pal-stage-reserve-right: calc(min(22%, 96px) + var(--pal-space) * 2);
  }
  /*
   * There the disclosure banner would cover her head: it sits between the stage and the chat, which gives up
   * the room (the stage keeps its 40 %), and takes the whole width. Dismissed, the chat has its 60 % again.
   */
  .main.chat { grid-template-rows: 40% auto minmax(0, 1fr); }
  .main.chat .overlays { position: relative; grid-row: 2; }
  .main.chat pal-disclosure { margin-right: 0; }
  .main.chat pal-transcript.panel { position: relative; grid-row: 3; height: auto; }
  /*
   * Narrower than 360 px, chat closed: beside the self view the banner wraps to four lines and covered her
   * hair down to her brows. It takes its own full-width row above the stage instead (two lines); dismissed,
   * the row is empty and the stage has the whole height again.
   */
  @container (max-width: 359px) {
    .main:not(.chat) { grid-template-rows: auto minmax(0, 1fr); }
    .main:not(.chat) .overlays { position: relative; grid-row: 1; }
    .main:not(.chat) pal-disclosure { margin-right: 0; }
    .main:not(.chat) pal-stage { position: relative; grid-row: 2; }
  }
  .notice {
    display: flex; align-items: center; gap: var(--pal-space-small, 8px); padding: 8px var(--pal-space, 12px);
    background: var(--pal-color-surface-raised); color: var(--pal-color-text); border-top: 1px solid var(--pal-color-border);
    font: 0.875rem/1.35 var(--pal-font);
  }
  .notice span { flex: 1; }
  .notice button { flex: none; }
  /* Narrow (a phone, a small embed): the words take the whole line and the buttons go under them, together. */
  @container (max-width: 359px) {
    .notice { flex-wrap: wrap; }
    .notice span { flex-basis: 100%; }
    .notice button:first-of-type { margin-left: auto; }
  }
  /* The voice/text switch in the chat's toolbar: smaller than a call control, still a comfortable target. */
  .mode { min-height: 32px; padding: 4px 12px; font-size: 0.85em; white-space: nowrap; }
  pal-controls { background: var(--pal-color-surface); border-top: 1px solid var(--pal-color-border); }
  .overlay {
    position: absolute; inset: 0; z-index: 4; display: grid; place-items: center;
    background: color-mix(in srgb, var(--pal-color-stage) 70%, transparent); color: #fff;
  }
  /* Wide: the chat panel sits beside the stage instead of over it. */
  @container (min-width: 900px) {
    .main.chat { grid-template-columns: minmax(0, 1fr) 340px; grid-template-rows: none; }
    .main.chat .overlays, .main.chat pal-transcript.panel { position: absolute; grid-row: auto; }
    .main.chat pal-disclosure { margin-right: calc(min(var(--pal-self-view-width, 28%), 200px) + var(--pal-space)); }
    .main.chat pal-stage, .main.chat .overlays { right: 340px; }
    /* Beside the panel the stage has its full height again. */
    .main.chat pal-stage { bottom: 0; --pal-stage-fit: cover; --pal-self-view-width: 28%; --pal-self-view-max-width: 200px; --pal-stage-reserve-right: 0px; }
    .main.chat .overlays { z-index: 2; }
    .main.chat pal-transcript.panel { top: 0; bottom: 0; left: auto; width: 340px; height: auto; }
  }
`;
