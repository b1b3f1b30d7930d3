// Splits extracted text into overlapping chunks of about `size` characters, cutting on paragraph
// boundaries first, then sentences, then words, so a chunk reads as a passage on its own.
import { splitSentences } from '../../platform/text/sentences.js';

export interface ChunkOptions {
  size?: number;
  /** Characters of the previous chunk's end repeated at the start of the next (started on a sentence or word). */
  overlap?: number;
}

interface Unit {
  text: string;
  /** Starts a new paragraph (joined with a blank line) rather than continuing one (a space). */
  paragraph: boolean;
}

export function chunkText(text: string, options: ChunkOptions = {}): string[] {
  return [...chunksOf(text, options)];
}

/** The chunks one by one, as they are cut: a caller can give the event loop a turn between them. */
export function* chunksOf(text: string, options: ChunkOptions = {}): Generator<string> {
  const size = options.size ?? 800;
  const overlap = Math.min(options.overlap ?? 120, Math.floor(size / 3));
  let current = '';
  for (const unit of units(text, size)) {
    const joiner = current ? (unit.paragraph ? '\n\n' : ' ') : '';
    if (current && current.length + joiner.length + unit.text.length > size) {
      yield current;
      const tail = overlapTail(current, overlap);
      current = tail && tail.length + 1 + unit.text.length <= size ? tail + (unit.paragraph ? '\n\n' : ' ') + unit.text : unit.text;
      continue;
    }
    current += joiner + unit.text;
  }
  if (current) yield current;
}

/** Paragraphs, or the sentences of a paragraph longer than `size`, in order. */
function* units(text: string, size: number): Generator<Unit> {
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = raw.replace(/[ \t]+/g, ' ').trim();
    if (!paragraph) continue;
    if (paragraph.length <= size) {
      yield { text: paragraph, paragraph: true };
      continue;
    }
    let first = true;
    for (const piece of splitLong(paragraph, size)) {
      yield { text: piece, paragraph: first };
      first = false;
    }
  }
}

/** Sentences (or word runs, for a sentence longer than `size`) of at most `size` characters. */
function splitLong(paragraph: string, size: number): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(paragraph)) {
    if (sentence.length <= size) {
      out.push(sentence);
      continue;
    }
    let piece = '';
    for (const word of sentence.split(' ')) {
      if (word.length > size) {
        if (piece) out.push(piece);
        for (let i = 0; i < word.length; i += size) out.push(word.slice(i, i + size));
        piece = '';
      } else if (piece && piece.length + 1 + word.length > size) {
        out.push(piece);
        piece = word;
      } else piece = piece ? `${piece} ${word}` : word;
    }
    if (piece) out.push(piece);
  }
  return out;
}

/** The end of a chunk to repeat: from a sentence start within the last `overlap` characters, else a word start. */
function overlapTail(chunk: string, overlap: number): string {
  if (overlap <= 0 || chunk.length <= overlap) return '';
  const window = chunk.slice(-overlap);
  const sentence = /(?:[.!?…]\s+|\n)(\S[\s\S]*)$/.exec(window);
  if (sentence?.[1] && sentence[1].length >= overlap / 4) return sentence[1].trim();
  const space = window.indexOf(' ');
  return space >= 0 ? window.slice(space + 1).trim() : '';
}
