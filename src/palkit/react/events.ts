// React prop names of the page-facing events, for @lit/react wrappers (`onPalReady` ↔ `pal-ready`).
import type { EventName } from '@lit/react';
import {
  PalCanvasInteractionEvent, PalConversationCreatedEvent, PalConversationEndedEvent, PalConversationStartedEvent,
  PalErrorEvent, PalModeChangeEvent, PalProtocolMessageEvent, PalReadyEvent, PalStateChangeEvent, PalToolCallEvent,
} from '../components/events/index.js';

/** Every event a deployment element (widget, embed, landing page) fires. */
export const deploymentEvents = {
  onPalReady: PalReadyEvent.type as EventName<PalReadyEvent>,
  onPalConversationCreated: PalConversationCreatedEvent.type as EventName<PalConversationCreatedEvent>,
  onPalConversationStarted: PalConversationStartedEvent.type as EventName<PalConversationStartedEvent>,
  onPalConversationEnded: PalConversationEndedEvent.type as EventName<PalConversationEndedEvent>,
  onPalStateChange: PalStateChangeEvent.type as EventName<PalStateChangeEvent>,
  onPalModeChange: PalModeChangeEvent.type as EventName<PalModeChangeEvent>,
  onPalError: PalErrorEvent.type as EventName<PalErrorEvent>,
  onPalToolCall: PalToolCallEvent.type as EventName<PalToolCallEvent>,
  onPalProtocolMessage: PalProtocolMessageEvent.type as EventName<PalProtocolMessageEvent>,
  onPalCanvasInteraction: PalCanvasInteractionEvent.type as EventName<PalCanvasInteractionEvent>,
};

/** pal-conversation used alone fires the same events except the deployment's own (ready, created). */
export const conversationEvents = {
  onPalConversationStarted: deploymentEvents.onPalConversationStarted,
  onPalConversationEnded: deploymentEvents.onPalConversationEnded,
  onPalStateChange: deploymentEvents.onPalStateChange,
  onPalModeChange: deploymentEvents.onPalModeChange,
  onPalError: deploymentEvents.onPalError,
  onPalToolCall: deploymentEvents.onPalToolCall,
  onPalProtocolMessage: deploymentEvents.onPalProtocolMessage,
  onPalCanvasInteraction: deploymentEvents.onPalCanvasInteraction,
};

export const canvasEvents = { onPalCanvasInteraction: deploymentEvents.onPalCanvasInteraction };
