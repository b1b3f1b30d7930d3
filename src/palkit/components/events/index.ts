// The page-facing events of every palkit element (all bubble and cross shadow roots).
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
