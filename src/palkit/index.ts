// npm entry: registers the palkit elements and exports their classes, events, the runtime and types.
import './components/define.js';
import { en, type StringKey } from './components/i18n/strings.js';
import { incallStrings } from './components/i18n/strings-incall.js';

export { PalWidget } from './components/widget/widget.js';
export { PalEmbed } from './components/embed/embed.js';
export { PalLanding } from './components/landing/landing.js';
export { PalConversation } from './components/conversation/conversation.js';
export { PalStage } from './components/stage/stage.js';
export { PalControls } from './components/controls/controls.js';
export { PalHaircheck } from './components/haircheck/haircheck.js';
export { PalGate } from './components/gate/gate.js';
export { PalPreview } from './components/screens/preview.js';
export { PalConnecting } from './components/screens/connecting.js';
export { PalUnavailable } from './components/screens/unavailable.js';
export { PalEnded } from './components/screens/ended.js';
export { PalErrorScreen } from './components/screens/error-screen.js';
export { PalDisclosure } from './components/disclosure/disclosure.js';
export { PalTranscript } from './components/transcript/transcript.js';
export { PalCanvas } from './components/canvas/canvas.js';
export { PalDeploymentElement } from './components/shared/deployment-element.js';
export * from './components/events/index.js';
export { translator, loadLanguage, languages, type StringKey, type Translate } from './components/i18n/strings.js';
/** Every English UI string, the call's included. */
export const englishStrings: Readonly<Record<StringKey, string>> = { ...en, ...incallStrings };

export { ApiClient } from './client/api.js';
export { PalClientError, type PalErrorCode } from './client/errors.js';
export { ConversationSession, type SessionSettings, type GateStep } from './client/session.js';
export * from './client/session-events.js';
export { LinkMessageEvent, type ConversationLink, type CanvasInteractionBody } from './client/link.js';
export { createTransportFactory } from './client/transport/select.js';
export type { Transport, TransportParticipant, TransportKind } from './client/transport/transport.js';
export type { Customization, InitResponse, StartBody, StartResponse, UnavailableReason } from '../protocol/public.js';
export {
  parseInteraction,
  parsePalMessage,
  protocolStats,
  type InteractionMessage,
  type PalMessage,
  type ClientMessage,
} from '../protocol/interactions.js';
