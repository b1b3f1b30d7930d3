// A language model's streamed reply made fit to say aloud, delta by delta: markdown emphasis, headings,
// bullets and code marks removed, links reduced to their text, bare URLs to their host. Only the word
// being written is held back (a URL or `**` can span deltas); everything before it passes on at once.
import type { SpeechSource } from './utterances.js';

/** Cleans one complete stretch of text (whole words). `lineStart`: the text begins a line. */
function clean(text: string, lineStart: boolean): string {
  let out = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\bhttps?:\/\/(?:www\.)?([^/\s)\]]+)[^\s)\]]*/g, '$1')
    .replace(/\bwww\.([^/\s)\]]+)[^\s)\]]*/g, '$1')
    .replace(/\*\*|__|`+|~~/g, '')
    .replace(/(^|\s)\*(?=\S)|(?<=\S)\*(?=\s|$|[.,!?;:])/g, '$1')
    .replace(/(^|\n)[ \t]*#{1,6}[ \t]+/g, '$1')
    .replace(/(^|\n)[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+/g, '$1')
    .replace(/(^|\n)[ \t]*>[ \t]?/g, '$1');
  if (lineStart) out = out.replace(/^[ \t]*(?:#{1,6}|[-*•]|\d{1,2}[.)]|>)[ \t]+/, '');
  // A line break is a pause: keep one space (or a full stop after a heading-like line with no end).
  return out.replace(/([^\s.!?:;,])[ \t]*\n+\s*/g, '$1. ').replace(/\s*\n+\s*/g, ' ');
}

/** A stateful cleaner: `push` each delta, `end` once; each returns the text ready to speak. */
export class SpeakableStream {
  private pending = '';
  private atLineStart = true;

  push(delta: string): string {
    this.pending += delta;
    // Hold back the word still being written (it may be half a URL or a `**`); a line is complete at its break.
    const cut = Math.max(this.pending.lastIndexOf(' '), this.pending.lastIndexOf('\n'), this.pending.lastIndexOf('\t'));
    if (cut < 0) return '';
    const ready = this.pending.slice(0, cut + 1);
    this.pending = this.pending.slice(cut + 1);
    return this.emit(ready);
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    return this.emit(rest).trimEnd();
  }

  private emit(text: string): string {
    if (!text) return '';
    // Markup at a line start only shows once the line's first word is complete, so clean whole lines' heads.
    const out = clean(text, this.atLineStart);
    this.atLineStart = /\n\s*$/.test(text);
    return out;
  }
}

/** `source` with its text made speakable as it streams. */
export function speakable(source: SpeechSource): SpeechSource {
  return async function* (signal) {
    const stream = new SpeakableStream();
    for await (const delta of source(signal)) {
      // Audio (echo) passes as it is, after the text before it.
      if (typeof delta !== 'string') {
        const before = stream.end();
        if (before) yield before;
        yield delta;
        continue;
      }
      const ready = stream.push(delta);
      if (ready) yield ready;
    }
    const rest = stream.end();
    if (rest) yield rest;
  };
}
