// Cuts a stream of text (a language model's tokens, or a whole answer) into pieces worth synthesising:
// sentences, so that speech starts on the first one while the model is still writing the rest.

/** A sentence ends at . ! ? … (or their CJK forms), closing quotes or brackets, then a space or the end. */
const SENTENCE_END = /[.!?…。！？]+["'”’)\]]*(?=\s|$)|\n+/g;
/** The first piece may end at a clause boundary this far in, so the first words come sooner. */
const FIRST_CLAUSE_MIN = 24;
/** A sentence running on this long is cut at its last clause boundary (or space). */
const MAX_PIECE = 220;

export async function* sentencesOf(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  let first = true;
  for await (const chunk of chunks) {
    buffer += chunk;
    for (;;) {
      const cut = cutAt(buffer, first, false);
      if (cut <= 0) break;
      const piece = buffer.slice(0, cut).trim();
      buffer = buffer.slice(cut);
      if (piece) {
        first = false;
        yield piece;
      }
    }
  }
  const rest = buffer.trim();
  if (rest) yield rest;
}

/** Where the first piece of `text` ends, or 0 while it may still grow. */
function cutAt(text: string, first: boolean, final: boolean): number {
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(text); match; match = SENTENCE_END.exec(text)) {
    const end = match.index + match[0].length;
    // "3.5" or "e.g." mid-stream: only a boundary once something follows it.
    if (end < text.length || final) return end;
  }
  if (first) {
    const clause = lastBoundary(text, /[,;:—–]\s/g);
    if (clause >= FIRST_CLAUSE_MIN) return clause;
  }
  if (text.length >= MAX_PIECE) return lastBoundary(text, /[,;:—–]\s/g) || lastBoundary(text, /\s/g) || text.length;
  return 0;
}

function lastBoundary(text: string, pattern: RegExp): number {
  let at = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) at = match.index + 1;
  return at;
}
