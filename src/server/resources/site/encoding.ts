// Which precompressed copy of a script or style a browser gets: the build writes `<file>.br` and
// `<file>.gz` beside each one (scripts/precompress.ts); the request's Accept-Encoding picks brotli, then
// gzip, else the file as built. Responses vary by that header, so caches keep one copy per encoding.

export type ContentEncoding = 'br' | 'gzip';

/** The suffix of each encoding's copy on disk. */
export const ENCODED_SUFFIX: Record<ContentEncoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The encodings a request accepts, best first (brotli before gzip: smaller at the same speed to decode).
 * `q=0` refuses one; `*` stands for any not named; absent or empty accepts none (RFC 9110 §12.5.3).
 */
export function acceptedEncodings(header: string | null | undefined): ContentEncoding[] {
  if (!header) return [];
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: string) => weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a));
}
