// Registers the in-call parts (idempotent): the conversation surface and what it is made of. The script
// tag's bundle loads this while the visitor is on the preview, so the launcher never waits for it.
import { PalCanvas } from './canvas/canvas.js';
import { PalControls } from './controls/controls.js';
import { PalConversation } from './conversation/conversation.js';
import { PalDisclosure } from './disclosure/disclosure.js';
import { PalStage } from './stage/stage.js';
import { PalTranscript } from './transcript/transcript.js';

export const callParts = {
  'pal-conversation': PalConversation,
  'pal-stage': PalStage,
  'pal-controls': PalControls,
  'pal-disclosure': PalDisclosure,
  'pal-transcript': PalTranscript,
  'pal-canvas': PalCanvas,
} as const;

export function defineCallParts(): void {
  for (const [name, ctor] of Object.entries(callParts)) if (!customElements.get(name)) customElements.define(name, ctor);
}
