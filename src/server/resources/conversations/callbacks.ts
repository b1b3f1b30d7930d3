// The conversation callbacks a local room sends, built against the protocol's schemas.
import type { CanvasInteractionRecord, ConversationCallback, TranscriptEntry } from '../../../protocol/callbacks.js';
import type { ConversationCallback as StoredCallback } from './events-store.js';
import { isoMillis } from '../../platform/time.js';
import type { TurnLatencySummary } from './turn-latency.js';

type Built = ConversationCallback & StoredCallback;

export function palJoinedCallbacks(conversationId: string, faceId: string | null, at: Date): Built[] {
  const base = {
    conversation_id: conversationId,
    message_type: 'system' as const,
    timestamp: isoMillis(at),
    properties: { face_id: faceId },
  };
  // The preferred event first, then its legacy duplicate with an identical payload.
  return [
    { ...base, event_type: 'system.pal_joined' },
    { ...base, event_type: 'system.replica_joined' },
  ];
}

/**
 * `turn_latency`: p50/p95 of what the visitor heard, measured in their page (issue 26); only when a page
 * reported any. The spec leaves a callback's properties open ("contents vary per event") and lists the
 * ones always present, so receivers that read `face_id` and `transcript` are unaffected.
 */
export function shutdownCallbacks(
  conversationId: string,
  faceId: string | null,
  reason: string,
  transcript: TranscriptEntry[],
  at: Date,
  turnLatency: TurnLatencySummary | null = null,
): Built[] {
  const timestamp = isoMillis(at);
  return [
    {
      conversation_id: conversationId,
      event_type: 'system.shutdown',
      message_type: 'system',
      timestamp,
      properties: { face_id: faceId, shutdown_reason: reason },
    },
    {
      conversation_id: conversationId,
      event_type: 'application.transcription_ready',
      message_type: 'application',
      timestamp,
      properties: { face_id: faceId, transcript, ...(turnLatency ? { turn_latency: turnLatency } : {}) },
    },
  ];
}

export function canvasInteractionCallback(record: CanvasInteractionRecord, at: Date): Built {
  return {
    conversation_id: record.conversation_id,
    event_type: 'canvas.interaction',
    message_type: 'canvas',
    timestamp: isoMillis(at),
    properties: record,
  };
}

export function perceptionAnalysisCallback(conversationId: string, analysis: string, at: Date): Built {
  return {
    conversation_id: conversationId,
    event_type: 'application.perception_analysis',
    message_type: 'application',
    timestamp: isoMillis(at),
    properties: { analysis },
  };
}
