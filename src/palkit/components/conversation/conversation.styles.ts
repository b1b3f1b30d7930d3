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
   * The stage's row keeps at least --pal-main-min (a third of the surface for the PAL's face, plus with the
   * chat open the chat's least: its newest message and the message box; issue 54): a card takes what is left
   * of its half and scrolls inside. The minimum never leaves less than the notice and controls need.
   */
  .layout {
    display: grid; grid-template-columns: minmax(0, 1fr); height: 100%;
    /* The chat's least: toolbar, message box and three lines of the log (more of it on a taller call). */
    --pal-chat-min: clamp(10.25rem, 22cqh, 14rem);
    /* The room kept under the stage's row: the notice and the controls, and a card's chip when one shows. */
    --pal-below: 7.5rem;
    --pal-main-min: calc(100cqh / 3);
    grid-template-rows: minmax(min(var(--pal-main-min), 100% - var(--pal-below)), 1fr) minmax(0, auto) auto auto;
  }
  .layout:has(> pal-canvas[has-card]) { --pal-below: 10.25rem; }
  /* With the chat open the banner (wrapped, measured by the element) has a row between the stage and the chat. */
  .layout.chat { --pal-main-min: calc(100cqh / 3 + var(--pal-banner-height, 0px) + var(--pal-chat-min)); }
  /*
   * A compact card the visitor expanded takes the chat's place (her stage keeps its third); minimised, the
   * chat comes back as it was.
   */
  .layout.chat:has(> pal-canvas[expanded]) { --pal-chat-min: 0px; }
  .layout.chat:has(> pal-canvas[expanded]) pal-transcript.panel { display: none; }
  .main { position: relative; display: grid; grid-template-columns: minmax(0, 1fr); min-height: 0; }
  pal-stage { position: absolute; inset: 0; }
  .overlays { position: absolute; inset: 0; z-index: 2; display: flex; flex-direction: column; pointer-events: none; }
  /* The banner leaves the top-right column to the self view (same width as pal-stage's). */
  pal-disclosure { flex: none; margin-right: calc(min(var(--pal-self-view-width, 28%), 200px) + var(--pal-space)); }
  /* The sheet: at most half the surface (its content scrolls inside), the stage keeps the rest. */
  pal-canvas { z-index: 3; max-height: 50cqh; min-height: 0; overflow: hidden; background: var(--pal-color-surface); }
  pal-canvas[has-card] { box-shadow: 0 -4px 16px rgb(0 0 0 / 0.2); }
  /*
   * Wide and landscape (the 16:9 embed, the landing page, a landscape phone): the card is a side panel
   * the whole height of the surface, on the side the PAL asked for; the stage and controls keep the rest.
   */
  @container (min-width: 600px) and (orientation: landscape) {
    .layout { grid-template-columns: auto minmax(0, 1fr) auto; grid-template-rows: minmax(min(var(--pal-main-min), 100% - var(--pal-below)), 1fr) auto auto; }
    .layout > * { grid-column: 2; }
    .layout > pal-canvas { grid-column: 3; grid-row: 1 / -1; max-height: none; }
    .layout > pal-canvas[card-side='left'] { grid-column: 1; }
    pal-canvas[has-card] { width: min(var(--pal-canvas-card-width, 340px), 45cqw); box-shadow: none; border-left: 1px solid var(--pal-color-border); }
    pal-canvas[has-card][card-side='left'] { border-left: 0; border-right: 1px solid var(--pal-color-border); }
  }
  /*
   * Landscape but under 1200 px (a 16:9 embed in a 768 or 1366 px page) with the chat open: the chat sits
   * beside the stage (below), so a card is the sheet under the stage: three columns would leave the PAL a
   * sliver (280 px of a 960 px embed, the disclosure wrapped to six lines beside the self view).
   */
  @container (min-width: 600px) and (max-width: 1199px) and (orientation: landscape) {
    .layout.chat { grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(min(var(--pal-main-min), 100% - var(--pal-below)), 1fr) minmax(0, auto) auto auto; }
    .layout.chat > * { grid-column: 1; }
    .layout.chat > pal-canvas, .layout.chat > pal-canvas[card-side='left'] { grid-column: 1; grid-row: auto; max-height: 50cqh; }
    .layout.chat > pal-canvas[has-card] { width: auto; border: 0; box-shadow: 0 -4px 16px rgb(0 0 0 / 0.2); }
  }
  pal-transcript[hidden] { display: none; }
  /* Over the bottom of her stage, clear of the AI mark at its bottom left (2rem: the mark's width and a gap). */
  pal-transcript.captions {
    position: absolute; left: 0; right: 0; bottom: 0; max-height: 40%; z-index: 1; pointer-events: none; padding-inline: 2rem;
  }
  pal-transcript.panel { position: absolute; left: 0; right: 0; bottom: 0; height: 60%; z-index: 3; background: var(--pal-color-surface); }
  /*
   * Narrow, chat open: the stage keeps the part above the panel and shows the PAL whole there (never cropped
   * to her forehead), beside a smaller self view that no longer covers her. The disclosure banner would cover
   * her head: it sits between the stage and the chat, its text wrapped (read whole). The stage keeps
   * a third of the surface and the chat its least (the newest message and the box), each a share of the rest.
   */
  .main.chat {
    grid-template-rows: minmax(min(100cqh / 3, 100%), 2fr) minmax(0, auto) minmax(min(var(--pal-chat-min), 50%), 3fr);
  }
  .main.chat pal-stage {
    position: relative; inset: auto; grid-row: 1;
    --pal-stage-fit: contain; --pal-self-view-width: 22%; --pal-self-view-max-width: 96px;
    --pal-stage-reserve-right: calc(min(22%, 96px) + var(--pal-space) * 2);
  }
  .main.chat .overlays { position: relative; grid-row: 2; overflow: hidden; }
  .main.chat pal-disclosure { margin-right: 0; }
  .main.chat pal-transcript.panel { position: relative; grid-row: 3; height: auto; min-height: 0; }
  /*
   * Narrower than 360 px, chat closed: beside the self view the banner covered her hair down to her brows.
   * It takes its own full-width row above the stage instead; dismissed, the row is empty and the
   * stage has the whole height again (its text wraps: read whole).
   */
  @container (max-width: 359px) {
    .layout:not(.chat) { --pal-main-min: calc(100cqh / 3 + var(--pal-banner-height, 0px)); }
    .main:not(.chat) { grid-template-rows: auto minmax(0, 1fr); }
    .main:not(.chat) .overlays { position: relative; grid-row: 1; }
    .main:not(.chat) pal-disclosure { margin-right: 0; }
    .main:not(.chat) pal-stage { position: relative; grid-row: 2; }
  }
  /*
   * A card under the stage, chat closed: her stage is short and captions over its bottom covered her mouth
   * (320 px). They take a row of their own under her instead, two lines high (the newest words), so her stage
   * keeps its third and does not jump as she speaks; the card has what is left.
   */
  @container not ((min-width: 600px) and (orientation: landscape)) {
    .layout:not(.chat):has(> pal-canvas[has-card]:not([expanded])) {
      --pal-captions-row: calc(2.94 * var(--pal-captions-font-size, 1.05em) + 20px);
      --pal-main-min: calc(100cqh / 3 + var(--pal-banner-height, 0px) * var(--pal-banner-row, 0) + var(--pal-captions-row));
    }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) { grid-template-rows: minmax(0, 1fr) auto; }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) pal-stage { position: relative; inset: auto; grid-row: 1; }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) pal-transcript.captions {
      position: relative; grid-row: 2; height: var(--pal-captions-row); max-height: none; --pal-space: 4px;
    }
  }
  @container (max-width: 359px) {
    .layout:not(.chat):has(> pal-canvas[has-card]:not([expanded])) { --pal-banner-row: 1; }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) { grid-template-rows: auto minmax(0, 1fr) auto; }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) pal-stage { grid-row: 2; }
    .layout:has(> pal-canvas[has-card]:not([expanded])) .main:not(.chat) pal-transcript.captions { grid-row: 3; }
  }
  /* One line with its buttons, at every width: the words cut with an ellipsis, whole on a tap (issue 54). */
  .notice {
    display: flex; align-items: center; gap: var(--pal-space-small, 8px); padding: 6px var(--pal-space, 12px);
    background: var(--pal-color-surface-raised); color: var(--pal-color-text); border-top: 1px solid var(--pal-color-border);
    font: 0.875rem/1.35 var(--pal-font);
  }
  .notice .words {
    flex: 1; min-width: 0; min-height: 0; padding: 0; border: 0; background: none; color: inherit; font: inherit; text-align: start;
    white-space: nowrap; overflow: hidden; text-overflow: ellipsis; display: block;
  }
  .notice .words[aria-expanded='true'] { white-space: normal; }
  .notice button { flex: none; }
  .notice button.primary { padding-inline: 12px; white-space: nowrap; }
  .notice .dismiss { width: 44px; padding: 0; }
  /* The voice/text switch in the chat's toolbar: smaller than a call control, still a comfortable target. */
  .mode { min-height: 32px; padding: 4px 12px; font-size: 0.85em; white-space: nowrap; }
  pal-controls { background: var(--pal-color-surface); border-top: 1px solid var(--pal-color-border); }
  .overlay {
    position: absolute; inset: 0; z-index: 4; display: grid; place-items: center;
    background: color-mix(in srgb, var(--pal-color-stage) 70%, transparent); color: #fff;
  }
  /*
   * Wide, or landscape from 600 px: the chat panel sits beside the stage instead of under it, the banner over
   * the stage again (the PAL has the stage's whole height).
   */
  @container (min-width: 900px) or ((min-width: 600px) and (orientation: landscape)) {
    .layout.chat { --pal-main-min: calc(100cqh / 3); }
    .main.chat { --pal-chat-width: min(340px, 45cqw); grid-template-columns: minmax(0, 1fr) var(--pal-chat-width); grid-template-rows: none; }
    .main.chat pal-stage { position: absolute; inset: 0; grid-row: auto; }
    .main.chat .overlays, .main.chat pal-transcript.panel { position: absolute; grid-row: auto; }
    .main.chat .overlays { inset: 0; overflow: visible; }
    .main.chat pal-disclosure { margin-right: calc(min(var(--pal-self-view-width, 28%), 200px) + var(--pal-space)); }
    .main.chat pal-stage, .main.chat .overlays { right: var(--pal-chat-width); }
    /* Beside the panel the stage has its full height again. */
    .main.chat pal-stage { bottom: 0; --pal-stage-fit: cover; --pal-self-view-width: 28%; --pal-self-view-max-width: 200px; --pal-stage-reserve-right: 0px; }
    .main.chat .overlays { z-index: 2; }
    .main.chat pal-transcript.panel { top: 0; bottom: 0; left: auto; right: 0; width: var(--pal-chat-width); height: auto; }
  }
  /* The chat beside the stage with a card under both: the stage's row holds the chat's least too. */
  @container (min-width: 600px) and (max-width: 1199px) and (orientation: landscape) {
    .layout.chat { --pal-main-min: max(100cqh / 3, var(--pal-chat-min)); }
  }
`;
