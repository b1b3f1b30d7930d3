// Registers the parts shown before a call (idempotent): preview, gate, device check and the status screens
// (the after-call screen comes with the call's parts, define-call.ts).
import { PalGate } from './gate/gate.js';
import { PalHaircheck } from './haircheck/haircheck.js';
import { PalConnecting } from './screens/connecting.js';
import { PalErrorScreen } from './screens/error-screen.js';
import { PalPreview } from './screens/preview.js';
import { PalUnavailable } from './screens/unavailable.js';

export const screenParts = {
  'pal-haircheck': PalHaircheck,
  'pal-gate': PalGate,
  'pal-preview': PalPreview,
  'pal-connecting': PalConnecting,
  'pal-unavailable': PalUnavailable,
  'pal-error-screen': PalErrorScreen,
} as const;

export function defineScreens(): void {
  for (const [name, ctor] of Object.entries(screenParts)) if (!customElements.get(name)) customElements.define(name, ctor);
}
