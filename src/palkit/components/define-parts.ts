// Registers every part the channel elements are built from (idempotent: safe when two bundles meet).
import { callParts, defineCallParts } from './define-call.js';
import { defineScreens, screenParts } from './define-screens.js';

export const parts = { ...screenParts, ...callParts } as const;

export function defineParts(): void {
  defineScreens();
  defineCallParts();
}
