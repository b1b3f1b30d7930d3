// Every palkit event. The page-facing ones bubble out of the element (composed); the parts' own events
// (pal-start, pal-password, …) reach the element that renders the part, or the page when a part is used
// on its own. Each file adds its event to the DOM's event maps, so `addEventListener('pal-…')` is typed.
export * from './pal-event.js';
export * from './ready.js';
export * from './conversation-created.js';
export * from './conversation-started.js';
export * from './conversation-ended.js';
export * from './state-change.js';
export * from './mode-change.js';
export * from './error.js';
export * from './tool-call.js';
export * from './protocol-message.js';
export * from './canvas-interaction.js';
export * from './turn-latency.js';
export * from './start.js';
export * from './password.js';
export * from './captcha.js';
export * from './captcha-unavailable.js';
export * from './confirm.js';
export * from './retry.js';
export * from './restart.js';
export * from './control.js';
export * from './end-answer.js';

/** Every palkit event by its name, as `addEventListener` types it. */
export type PalEventMap = { [K in keyof HTMLElementEventMap as K extends `pal-${string}` ? K : never]: HTMLElementEventMap[K] };
