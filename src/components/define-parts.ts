// Registers the parts the channel elements are built from (idempotent: safe when two bundles meet).
import { PalCanvas } from './canvas/canvas.js';
import { PalConversation } from './conversation/conversation.js';
import { PalDisclosure } from './disclosure/disclosure.js';
import { PalTranscript } from './transcript/transcript.js';
import { PalControls } from './controls/controls.js';
import { PalGate } from './gate/gate.js';
import { PalHaircheck } from './haircheck/haircheck.js';
import { PalConnecting } from './screens/connecting.js';
import { PalEnded } from './screens/ended.js';
import { PalErrorScreen } from './screens/error-screen.js';
import { PalPreview } from './screens/preview.js';
import { PalUnavailable } from './screens/unavailable.js';
import { PalStage } from './stage/stage.js';

export const parts = {
  'pal-conversation': PalConversation,
  'pal-stage': PalStage,
  'pal-controls': PalControls,
  'pal-haircheck': PalHaircheck,
  'pal-gate': PalGate,
  'pal-preview': PalPreview,
  'pal-connecting': PalConnecting,
  'pal-unavailable': PalUnavailable,
  'pal-ended': PalEnded,
  'pal-error-screen': PalErrorScreen,
  'pal-disclosure': PalDisclosure,
  'pal-transcript': PalTranscript,
  'pal-canvas': PalCanvas,
} as const;

export function defineParts(): void {
  for (const [name, ctor] of Object.entries(parts)) if (!customElements.get(name)) customElements.define(name, ctor);
}
