// Registers the call's parts (idempotent): the conversation surface, what it is made of, and the after-call
// screen. The script tag's bundle fetches them while the visitor is on the preview, gate or device check.
import { PalCanvas } from './canvas/canvas.js';
import { PalControls } from './controls/controls.js';
import { PalConversation } from './conversation/conversation.js';
import { PalDisclosure } from './disclosure/disclosure.js';
import { PalEndConfirm } from './end-confirm/end-confirm.js';
import { addEnglish } from './i18n/strings.js';
import { incallStrings } from './i18n/strings-incall.js';
import { PalEnded } from './screens/ended.js';
import { PalStage } from './stage/stage.js';
import { PalTranscript } from './transcript/transcript.js';

export const callParts = {
  'pal-conversation': PalConversation,
  'pal-stage': PalStage,
  'pal-controls': PalControls,
  'pal-disclosure': PalDisclosure,
  'pal-transcript': PalTranscript,
  'pal-canvas': PalCanvas,
  'pal-ended': PalEnded,
  'pal-end-confirm': PalEndConfirm,
} as const;

export function defineCallParts(): void {
  addEnglish(incallStrings);
  for (const [name, ctor] of Object.entries(callParts)) if (!customElements.get(name)) customElements.define(name, ctor);
}
