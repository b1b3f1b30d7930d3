// The conversation as the PAL's language model is told it: the visitor's turns and the PAL's, oldest first.
// A room that opens on another instance (a crash, a drain, a rejoin) rebuilds it from the stored
// transcript, so the model sees the whole conversation after a move as it did before; an utterance the
// visitor cut off (or the room's death did) is marked, so the model knows the rest was never heard.
import type { RoomTranscriptEntry } from '../../../protocol/room.js';
import type { ChatMessage } from './llm.js';

/** Appended to a PAL turn that was cut off: what precedes it is all the visitor heard. */
export const INTERRUPTED_MARK = '[interrupted]';

/** The PAL's turn as heard, marked when it was cut off. */
export function palTurn(text: string, interrupted: boolean): ChatMessage {
  return { role: 'assistant', content: interrupted ? `${text} ${INTERRUPTED_MARK}` : text };
}

/** The stored transcript (transcript-store.ts loadRoomHistory) as the model's history. */
export function historyOf(turns: readonly RoomTranscriptEntry[]): ChatMessage[] {
  return turns
    .filter((t) => t.content.trim())
    .map((t) => (t.role === 'assistant' ? palTurn(t.content, t.interrupted === true) : { role: 'user', content: t.content }));
}

/** How recent a visitor's last, unanswered turn must be for a room opened again to answer it. */
export const UNANSWERED_WITHIN_MS = 60_000;

/**
 * The visitor's turn the conversation ends on, stored but never answered (its room closed or died before the
 * reply began), when it is recent: the room opened again answers it.
 */
export function unansweredTurn(turns: readonly RoomTranscriptEntry[], now: Date): string | null {
  const last = turns.filter((t) => t.content.trim()).at(-1);
  if (!last || last.role !== 'user' || now.getTime() - last.timestamp * 1000 > UNANSWERED_WITHIN_MS) return null;
  return last.content;
}
