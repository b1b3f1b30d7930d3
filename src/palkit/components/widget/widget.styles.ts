import { css } from 'lit';

export const widgetStyles = css`
  :host { position: fixed; z-index: 2147483000; --pal-launcher-size: 56px; --pal-widget-width: 400px; --pal-widget-height: 640px; }
  /* Widgets sharing a corner stack away from its edge (corner-stack.ts sets the offset). */
  :host { --pal-widget-stack: var(--pal-widget-stack-offset, 0px); }
  :host([corner='bottom-right']), :host(:not([corner])) { right: max(20px, env(safe-area-inset-right)); bottom: calc(max(20px, env(safe-area-inset-bottom)) + var(--pal-widget-stack)); }
  :host([corner='bottom-left']) { left: max(20px, env(safe-area-inset-left)); bottom: calc(max(20px, env(safe-area-inset-bottom)) + var(--pal-widget-stack)); }
  :host([corner='top-right']) { right: max(20px, env(safe-area-inset-right)); top: calc(max(20px, env(safe-area-inset-top)) + var(--pal-widget-stack)); }
  :host([corner='top-left']) { left: max(20px, env(safe-area-inset-left)); top: calc(max(20px, env(safe-area-inset-top)) + var(--pal-widget-stack)); }

  .launcher {
    display: inline-flex; align-items: center; gap: var(--pal-space); font: inherit; font-weight: 600; cursor: pointer;
    min-width: var(--pal-launcher-size); height: var(--pal-launcher-size); padding: 0 calc(var(--pal-space) * 2);
    border: none; border-radius: 999px; background: var(--pal-color-accent); color: var(--pal-color-accent-contrast);
    box-shadow: var(--pal-shadow); position: relative;
  }
  .launcher:focus-visible { outline: none; box-shadow: var(--pal-shadow), var(--pal-focus-ring); }
  .launcher.tiny { width: var(--pal-launcher-size); padding: 0; justify-content: center; }
  .launcher.full {
    height: auto; padding: var(--pal-space); padding-right: calc(var(--pal-space) * 2);
    border-radius: var(--pal-radius); background: var(--pal-color-surface); color: var(--pal-color-text);
  }
  .launcher .face { width: 64px; height: 64px; border-radius: var(--pal-radius-small); object-fit: cover; background: var(--pal-color-surface-raised); }
  /* A deployment that cannot be talked to says so on the launcher itself, before anyone clicks. */
  .launcher.down { background: var(--pal-color-surface-raised); color: var(--pal-color-text-muted); cursor: default; }
  .launcher .words { display: grid; text-align: start; line-height: 1.25; }
  .launcher .down-text { font-size: 0.8em; font-weight: 500; }
  .launcher .down-badge {
    position: absolute; top: -2px; right: -2px; display: grid; place-items: center; width: 18px; height: 18px; border-radius: 50%;
    background: var(--pal-color-danger); color: #fff; font: 700 12px/1 var(--pal-font); border: 2px solid var(--pal-color-surface);
  }
  .launcher .live { position: absolute; top: 2px; right: 2px; width: 12px; height: 12px; border-radius: 50%; background: var(--pal-color-success); border: 2px solid #fff; }

  dialog {
    padding: 0; border: none; color: var(--pal-color-text); background: var(--pal-color-surface);
    width: min(var(--pal-widget-width), calc(100vw - 40px)); height: min(var(--pal-widget-height), calc(100dvh - 40px));
    border-radius: var(--pal-radius); box-shadow: var(--pal-shadow); overflow: hidden;
    position: fixed; margin: 0; inset: auto 20px 20px auto;
  }
  :host([corner='bottom-left']) dialog { inset: auto auto 20px 20px; }
  :host([corner='top-right']) dialog { inset: 20px 20px auto auto; }
  :host([corner='top-left']) dialog { inset: 20px auto auto 20px; }
  dialog::backdrop { background: rgb(0 0 0 / 0.15); }
  dialog[open] { display: grid; grid-template-rows: auto minmax(0, 1fr); }
  .header {
    display: flex; align-items: center; justify-content: space-between; gap: var(--pal-space);
    padding: var(--pal-space) var(--pal-space) var(--pal-space) calc(var(--pal-space) * 2);
    border-bottom: 1px solid var(--pal-color-border); font-weight: 600;
  }
  .actions { display: flex; gap: 4px; }
  .close, .minimise { min-height: 44px; min-width: 44px; padding: 0; border-radius: 50%; border: none; background: transparent; font-size: 24px; line-height: 1; }
  .body { min-height: 0; }
  .body > * { height: 100%; }

  /* Phones: a full-screen sheet that respects the notch and home indicator. */
  @media (max-width: 640px) {
    dialog, :host([corner]) dialog {
      inset: 0; width: 100vw; height: 100dvh; max-width: none; max-height: none; border-radius: 0;
      padding-top: env(safe-area-inset-top); padding-left: env(safe-area-inset-left); padding-right: env(safe-area-inset-right);
      box-sizing: border-box;
    }
  }
  @media (prefers-reduced-motion: no-preference) {
    dialog[open] { animation: rise 160ms ease-out; }
    @keyframes rise { from { opacity: 0; transform: translateY(12px); } }
  }
`;
