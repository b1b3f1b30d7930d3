// The Magic Canvas card the PAL shows (one at a time) and the visitor's answers to it: each interaction
// taken once, acknowledged in the language the card was shown in (cards.ts says the lines).
import { isRecord } from '../../resources/conversations/live-conversation.js';
import type { VisitorClock } from '../../resources/pals/lines/spoken-time.js';
import type { RoomMessage } from './app-message.js';
import { acknowledgement } from './cards.js';

/** A visitor's answer to a card, acknowledged. */
export interface CardAnswer {
  line: string;
  type: string;
  value: Record<string, unknown>;
  language: string;
  /** The answer was a submit or a skip: the card is done, and the canvas is cleared. */
  closes: boolean;
}

export class ShownCards {
  /** The visible card's arguments, by its tool call id. */
  private readonly shown = new Map<string, Record<string, unknown>>();
  /** The language the PAL's last card was shown in: its acknowledgement is said in it too. */
  shownIn: string | undefined;
  private readonly seenInteractions = new Set<string>();

  /** The PAL shows a card: one at a time, a new one replaces the visible one. */
  show(toolCallId: string, args: Record<string, unknown>): void {
    this.shown.clear();
    this.shown.set(toolCallId, args);
  }

  /** A card pushed in the PAL's name is the PAL's card: its answer is acknowledged like one it showed itself. */
  pushed(message: RoomMessage): void {
    const p = message.properties;
    if (message.event_type !== 'conversation.tool_call' || !isRecord(p) || typeof p.name !== 'string') return;
    if (p.name === 'canvas_clear') this.shown.clear();
    if (!p.name.startsWith('canvas_show_') || typeof p.tool_call_id !== 'string') return;
    let args: unknown;
    try {
      args = typeof p.arguments === 'string' ? JSON.parse(p.arguments) : p.arguments;
    } catch {
      return;
    }
    this.shown.clear();
    if (isRecord(args)) this.shown.set(p.tool_call_id, args);
  }

  /** A recorded canvas interaction, once: what the PAL says back, or null when it says nothing. */
  answer(p: Record<string, unknown>, palLanguage: string, clock: VisitorClock): CardAnswer | null {
    const id = typeof p.interaction_id === 'string' ? p.interaction_id : null;
    if (!id || this.seenInteractions.has(id) || typeof p.type !== 'string') return null;
    this.seenInteractions.add(id);
    const value = isRecord(p.value) ? p.value : {};
    const toolCallId = typeof p.tool_call_id === 'string' ? p.tool_call_id : '';
    const language = this.shownIn ?? palLanguage;
    const line = acknowledgement({ type: p.type, value }, this.shown.get(toolCallId), { lang: language, clock });
    if (!line) return null;
    const closes = p.type === 'submit' || p.type === 'skip';
    if (closes) this.shown.delete(toolCallId);
    return { line, type: p.type, value, language, closes };
  }
}
