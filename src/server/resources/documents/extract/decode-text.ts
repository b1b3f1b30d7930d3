// Bytes to text for the extractors and the crawler, apart from index.ts so the crawler can decode a page
// without loading the file formats' parsers (jszip and the rest), which only an upload or a crawled file needs.

/** UTF-8 text (BOM dropped), or undefined when the bytes look binary. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\ufeff/, '');
  const replaced = text.match(/\ufffd/g)?.length ?? 0;
  // A multi-byte character cut at the end of a sample yields one or two replacement characters.
  return replaced > Math.max(2, text.length / 100) ? latin1Fallback(bytes) : text;
}

/** Legacy single-byte text is accepted when it has no control bytes besides whitespace. */
function latin1Fallback(bytes: Uint8Array): string | undefined {
  const controls = bytes.filter((b) => b < 9 || (b > 13 && b < 32)).length;
  return controls === 0 ? new TextDecoder('latin1').decode(bytes) : undefined;
}
