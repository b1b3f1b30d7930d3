// The transcript as data: the PAL's replies (a row from the first streamed words, completed by the
// utterance; an interrupted reply keeps what was said), the visitor's turns and chat lines, the tools
// the PAL used, and the caption currently on screen. No DOM, so it stays cheap with thousands of
// entries and is easy to test.
import type { PalMessage } from '../../../protocol/interactions.js';
import type { RoomTranscriptEntry } from '../../../protocol/room.js';

/** `tool`: the PAL called a tool (its name is the entry's `speech`); canvas cards are not listed. */
export type TranscriptRole = 'replica' | 'user' | 'tool';

export interface TranscriptEntry {
  /** Local, increasing id (stable key for rendering). */
  readonly id: number;
  readonly role: TranscriptRole;
  speech: string;
  /** Epoch milliseconds when the utterance arrived (or the chat line was sent). */
  readonly timestamp: number;
  inferenceId?: string;
  turnIdx?: number;
  interrupted: boolean;
  /** `chat` when the visitor typed it; `pending` until the room confirms it as an utterance. */
  source: 'voice' | 'chat';
  pending: boolean;
  /**
   * A row started by streamed words: true while the reply is spoken, false once its last words came
   * (or it was cut off); absent on every other row and once the complete utterance replaced it.
   */
  streaming?: boolean;
}

export interface Caption {
  /** The turn it belongs to (inference id, or a local key). */
  readonly key: string;
  text: string;
  /** True once the complete utterance replaced the streamed text. */
  final: boolean;
  interrupted: boolean;
  /** Whose words: the PAL's (absent), or the visitor's as the service hears them. */
  role?: 'user';
}

/** The key of the visitor's words being heard (one speaker's turn at a time is captioned). */
const userCaptionKey = 'user-speech';

export interface ApplyResult {
  entries: boolean;
  caption: boolean;
  /** A complete replica utterance worth announcing to screen readers. */
  announce?: string;
}

const nothing: ApplyResult = { entries: false, caption: false };
// How far back a confirming utterance may find the chat line it echoes.
const chatConfirmWindow = 20;

export class TranscriptModel {
  readonly entries: TranscriptEntry[] = [];
  caption: Caption | null = null;
  private nextId = 1;
  // Interruptions reported before their utterance arrived.
  private readonly interruptedTurns = new Set<string>();

  get startedAt(): number | null {
    return this.entries[0]?.timestamp ?? null;
  }

  apply(message: PalMessage, now = Date.now()): ApplyResult {
    switch (message.event_type) {
      case 'conversation.utterance': {
        const { role, speech } = message.properties;
        const inferenceId = message.inference_id;
        const interrupted = inferenceId !== undefined && this.interruptedTurns.has(inferenceId);
        if (role === 'user' && this.confirmChat(speech, inferenceId)) return { entries: true, caption: false };
        // The visitor's words heard so far were captioned: the complete turn replaces them.
        const heard = role === 'user' && this.caption?.key === userCaptionKey && !this.caption.final;
        if (heard) this.caption = { key: userCaptionKey, text: speech, final: true, interrupted: false, role: 'user' };
        const streamed = role === 'replica' ? this.streamedRow(inferenceId) : undefined;
        if (streamed) {
          // The row shown while it was spoken becomes the complete utterance.
          streamed.speech = speech;
          delete streamed.streaming;
          streamed.interrupted ||= interrupted;
        } else
          this.entries.push({
            id: this.nextId++,
            role,
            speech,
            timestamp: now,
            inferenceId,
            turnIdx: message.turn_idx,
            interrupted,
            source: 'voice',
            pending: false,
          });
        if (role !== 'replica') return { entries: true, caption: heard };
        this.caption = { key: inferenceId ?? `local-${this.nextId}`, text: speech, final: true, interrupted };
        return { entries: true, caption: true, announce: speech };
      }
      case 'conversation.utterance.streaming': {
        const { speech, final, is_interrupted, role } = message.properties;
        // The visitor's words as they are heard: a caption only; the transcript takes the complete turn.
        if (role === 'user') {
          if (!speech.trim() || (this.caption?.key === userCaptionKey && this.caption.text === speech)) return nothing;
          this.caption = { key: userCaptionKey, text: speech, final: false, interrupted: false, role: 'user' };
          return { entries: false, caption: true };
        }
        const key = message.inference_id ?? 'streaming';
        let entries = this.streamRow(message.inference_id, speech, final, Boolean(is_interrupted), now, message.turn_idx);
        if (final && is_interrupted) entries = this.markInterrupted(message.inference_id) || entries;
        // A partial arriving after the complete utterance of the same turn must not shrink the caption.
        if (this.caption?.key === key && this.caption.final) {
          if (is_interrupted) this.caption.interrupted = true;
          return { entries, caption: Boolean(is_interrupted) };
        }
        this.caption = { key, text: speech, final: false, interrupted: Boolean(is_interrupted) };
        return { entries, caption: true };
      }
      case 'conversation.tool_call': {
        const { name } = message.properties;
        if (name.startsWith('canvas_')) return nothing;
        this.entries.push({
          id: this.nextId++,
          role: 'tool',
          speech: name,
          timestamp: now,
          inferenceId: message.inference_id,
          turnIdx: message.turn_idx,
          interrupted: false,
          source: 'voice',
          pending: false,
        });
        return { entries: true, caption: false };
      }
      case 'conversation.replica_interrupted':
        return this.interrupt(message.inference_id);
      case 'conversation.replica.stopped_speaking':
        return message.properties.interrupted ? this.interrupt(message.inference_id) : nothing;
      default:
        return nothing;
    }
  }

  /**
   * The conversation so far, as the room keeps it (after a reload): it goes before anything already
   * shown. Only a transcript that has shown nothing yet takes it.
   */
  load(history: readonly RoomTranscriptEntry[]): boolean {
    if (this.entries.length > 0 || history.length === 0) return false;
    for (const h of history) {
      this.entries.push({
        id: this.nextId++,
        role: h.role === 'assistant' ? 'replica' : 'user',
        speech: h.content,
        timestamp: h.timestamp * 1000,
        ...(h.inference_id ? { inferenceId: h.inference_id } : {}),
        interrupted: h.interrupted === true,
        source: 'voice',
        pending: false,
      });
    }
    return true;
  }

  /** Record a chat line the visitor sent (shown at once, confirmed when the room echoes it). */
  addChat(text: string, now = Date.now()): TranscriptEntry {
    const entry: TranscriptEntry = {
      id: this.nextId++,
      role: 'user',
      speech: text,
      timestamp: now,
      interrupted: false,
      source: 'chat',
      pending: true,
    };
    this.entries.push(entry);
    return entry;
  }

  /** The row of the reply being spoken: its streamed words as they come; true when the rows changed. */
  private streamRow(
    inferenceId: string | undefined,
    speech: string,
    final: boolean,
    interrupted: boolean,
    now: number,
    turnIdx: number | undefined,
  ): boolean {
    const row = this.streamedRow(inferenceId);
    if (row) {
      // Words only grow while spoken; a late partial after the complete utterance changes nothing.
      if (!row.streaming || (row.speech === speech && !final && !interrupted)) return false;
      if (speech) row.speech = speech;
      if (final) row.streaming = false;
      if (interrupted) row.interrupted = true;
      return true;
    }
    if (!speech.trim() || (inferenceId !== undefined && this.entries.some((e) => e.role === 'replica' && e.inferenceId === inferenceId)))
      return false;
    this.entries.push({
      id: this.nextId++,
      role: 'replica',
      speech,
      timestamp: now,
      inferenceId,
      turnIdx,
      interrupted,
      source: 'voice',
      pending: false,
      streaming: !final,
    });
    return true;
  }

  /** The replica row of this turn that streamed words started and no complete utterance replaced yet. */
  private streamedRow(inferenceId: string | undefined): TranscriptEntry | undefined {
    for (let i = this.entries.length - 1; i >= Math.max(0, this.entries.length - chatConfirmWindow); i--) {
      const entry = this.entries[i]!;
      if (entry.role === 'replica' && entry.streaming !== undefined && (inferenceId === undefined || entry.inferenceId === inferenceId))
        return entry;
    }
    return undefined;
  }

  private confirmChat(speech: string, inferenceId: string | undefined): boolean {
    const wanted = speech.trim();
    for (let i = this.entries.length - 1; i >= Math.max(0, this.entries.length - chatConfirmWindow); i--) {
      const entry = this.entries[i]!;
      if (entry.pending && entry.speech.trim() === wanted) {
        entry.pending = false;
        entry.inferenceId = inferenceId;
        return true;
      }
    }
    return false;
  }

  private interrupt(inferenceId: string | undefined): ApplyResult {
    let entries = this.markInterrupted(inferenceId);
    // The interrupt may carry the id of the triggering user turn: fall back to the current replica turn.
    const last = this.entries[this.entries.length - 1];
    if (!entries && inferenceId !== undefined && last?.role === 'replica' && !last.interrupted) {
      last.interrupted = true;
      entries = true;
    }
    const caption = this.caption !== null && !this.caption.interrupted;
    if (this.caption) this.caption.interrupted = true;
    return { entries, caption };
  }

  /** Mark the replica turn (by inference id, else the latest replica entry) as interrupted. */
  private markInterrupted(inferenceId: string | undefined): boolean {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      if (entry.role !== 'replica' || (inferenceId !== undefined && entry.inferenceId !== inferenceId)) continue;
      if (entry.interrupted) return false;
      entry.interrupted = true;
      return true;
    }
    if (inferenceId !== undefined) this.interruptedTurns.add(inferenceId);
    return false;
  }
}
