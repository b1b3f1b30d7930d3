// The text as the WebAssembly build must be given it, and the way back to the caller's characters. That
// build reads its input as SSML and takes [[…]] as phoneme codes, so `<`, `>` and `&` become entities
// and `[` a parenthesis (a visitor's text must never become markup or raw phonemes). eSpeak reports a
// word's position in the text it was given, so each of its characters remembers which one it stands for.

export interface EspeakText {
  text: string;
  /** For each character of `text`, the index of the caller's character it came from. */
  origin: number[];
}

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

export function espeakText(input: string): EspeakText {
  const chars = [...input];
  let text = '';
  const origin: number[] = [];
  chars.forEach((c, i) => {
    const out = ENTITIES[c] ?? (c === '[' ? '(' : c === ']' ? ')' : c);
    text += out;
    for (let k = 0; k < out.length; k++) origin.push(i);
  });
  return { text, origin };
}

/** A word eSpeak placed at `position` (from 1) with `length` characters of `text`, in the caller's characters (position from 1). */
export function callerSpan(mapped: EspeakText, position: number, length: number): { position: number; length: number } | null {
  const first = mapped.origin[position - 1];
  const last = mapped.origin[Math.min(mapped.origin.length, position - 1 + Math.max(1, length)) - 1];
  if (first === undefined || last === undefined || last < first) return null;
  return { position: first + 1, length: last - first + 1 };
}
