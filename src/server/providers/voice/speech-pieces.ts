// Cuts a stream of text (a language model's tokens, or a whole answer) into pieces worth synthesising:
// sentences, so that speech starts on the first one while the model is still writing the rest. Audio
// handed to the PAL as it is (the echo pipeline's audio mode) passes through in its place. Boundaries
// are the service's one rule for sentences (platform/text/sentences.ts).
import { endsInAbbreviation, sentenceSegmenter } from '../../platform/text/sentences.js';

/** Audio the PAL says as it is. */
export interface AudioPiece {
  samples: Int16Array;
  sampleRate: number;
}

/**
 * The segmenter calls the text's last sentence complete even while the model may still be writing it
 * ("3." before ".5"). It is complete as soon as it ends in a full-width stop, or in a stop followed by
 * a space or a line break, so that a sentence is voiced the moment it is written.
 */
const ENDS_COMPLETE = /(?:[。！？][」』）”’"')\]]*|[.!?…]["'”’)\]]*\s)\s*$|\n\s*$/u;
const CLAUSE_END = /[,;:—–]\s|[、，；：]/g;
/** The first piece may end at a clause boundary this far in, so the first words come sooner. */
const FIRST_CLAUSE_MIN = 24;
/**
 * No piece is longer: a sentence running on past it (a 4,000-character echo without a full stop) is cut
 * at its last clause boundary within it, or its last space, or at the bound. The engine serves rooms a
 * piece at a time, so this bounds how long another room's sentence can wait behind one.
 */
export const MAX_PIECE = 200;
/** A clause boundary this early in a long piece would leave it short: the last space is taken instead. */
const MIN_CLAUSE_CUT = MAX_PIECE / 3;

/** Text pieces in sentences; audio pieces after the text that came before them. */
export async function* piecesOf(chunks: AsyncIterable<string | AudioPiece>): AsyncGenerator<string | AudioPiece> {
  const cutter = new SentenceCutter();
  for await (const chunk of chunks) {
    if (typeof chunk === 'string') yield* cutter.push(chunk);
    else {
      yield* cutter.end();
      yield chunk;
    }
  }
  yield* cutter.end();
}

/** A whole text (a speech item's script) in bounded pieces, for synthesis a piece at a time. */
export function chunksOf(text: string): string[] {
  const cutter = new SentenceCutter();
  return [...cutter.push(text), ...cutter.end()];
}

export async function* sentencesOf(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  const cutter = new SentenceCutter();
  for await (const chunk of chunks) yield* cutter.push(chunk);
  yield* cutter.end();
}

class SentenceCutter {
  private buffer = '';
  private first = true;

  /** The sentences completed by this chunk. */
  push(chunk: string): string[] {
    this.buffer += chunk;
    const pieces: string[] = [];
    for (let cut = this.cutAt(); cut > 0; cut = this.cutAt()) {
      const piece = this.buffer.slice(0, cut).trim();
      this.buffer = this.buffer.slice(cut);
      if (!piece) continue;
      this.first = false;
      pieces.push(piece);
    }
    return pieces;
  }

  /** What is left, as the last pieces. */
  end(): string[] {
    const pieces: string[] = [];
    let rest = this.buffer.trim();
    this.buffer = '';
    while (rest.length > MAX_PIECE) {
      const cut = boundedCut(rest);
      pieces.push(rest.slice(0, cut).trim());
      rest = rest.slice(cut).trim();
    }
    if (rest) pieces.push(rest);
    if (pieces.length) this.first = false;
    return pieces.filter(Boolean);
  }

  /** Where the first piece of the buffer ends, or 0 while it may still grow. */
  private cutAt(): number {
    const text = this.buffer;
    for (const { segment, index } of sentenceSegmenter.segment(text)) {
      const end = index + segment.length;
      if (endsInAbbreviation(text.slice(0, end))) continue; // "Dr. " goes on with "Weber"
      if (end > MAX_PIECE) break; // too long to wait for its end: cut below
      // A sentence with another after it is complete; the last one only once it visibly ends.
      if (end < text.length || (segment.trim() && ENDS_COMPLETE.test(segment))) return end;
      break;
    }
    if (this.first) {
      const clause = lastBoundary(text.slice(0, MAX_PIECE), CLAUSE_END);
      if (clause >= FIRST_CLAUSE_MIN) return clause;
    }
    if (text.length >= MAX_PIECE) return boundedCut(text);
    return 0;
  }
}

/** Where a text longer than MAX_PIECE is cut: its last clause boundary within the bound, or its last space, or the bound itself (never inside a surrogate pair). */
function boundedCut(text: string): number {
  const head = text.slice(0, MAX_PIECE + 1);
  const clause = lastBoundary(head, CLAUSE_END);
  if (clause >= MIN_CLAUSE_CUT && clause <= MAX_PIECE) return clause;
  const space = lastBoundary(head, /\s/g);
  if (space > 0) return space;
  const high = text.charCodeAt(MAX_PIECE - 1);
  return high >= 0xd800 && high <= 0xdbff ? MAX_PIECE - 1 : MAX_PIECE;
}

function lastBoundary(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let at = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) at = match.index + 1;
  return at;
}
