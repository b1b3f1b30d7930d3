// What travels through a local room as an app-message: an interactions-protocol envelope. The room and
// the PAL relay it as it is; the elements validate what they receive (src/protocol/interactions.ts).
export interface RoomMessage {
  message_type: string;
  event_type: string;
  conversation_id?: string;
  inference_id?: string;
  seq?: number;
  turn_idx?: number;
  properties: Record<string, unknown>;
}

/** A canvas interaction relayed by the interactions endpoint (message_type `canvas`). */
export function canvasInteractionProperties(raw: unknown): Record<string, unknown> | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (m.event_type !== 'canvas.interaction' || typeof m.properties !== 'object' || m.properties === null) return null;
  return m.properties as Record<string, unknown>;
}
