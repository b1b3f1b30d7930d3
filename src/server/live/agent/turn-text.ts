// A visitor's words as the PAL takes them: control characters carry no meaning in a turn (tab and
// line breaks excepted) and PostgreSQL text cannot hold NUL, so they are removed rather than letting
// one character lose the whole turn; lone surrogates become U+FFFD so the text encodes as UTF-8.
const MEANINGLESS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The turn's text, cleaned and trimmed; empty when nothing speakable is left. */
export function turnText(raw: string, maxLength: number): string {
  return raw.replace(LONE_SURROGATE, '\uFFFD').replace(MEANINGLESS, '').trim().slice(0, maxLength);
}
