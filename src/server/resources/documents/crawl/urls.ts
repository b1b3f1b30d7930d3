// URL identity for crawling: two spellings of one page must collapse to one entry.
// Normalised form: http(s) only, no credentials, lower-case host (the URL parser already does it),
// default port dropped, fragment dropped, query parameters sorted, an empty query removed.

export function normaliseUrl(input: string | URL, base?: string | URL): string | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  url.hash = '';
  url.searchParams.sort();
  const query = url.searchParams.toString();
  url.search = query ? `?${query}` : '';
  return url.toString();
}

/** Same site: same host and port (scheme may differ, so an http → https move stays in the crawl). */
export function sameSite(a: string, b: string): boolean {
  const ua = new URL(a);
  const ub = new URL(b);
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  return ua.hostname === ub.hostname && (port(ua) === port(ub) || (ua.protocol !== ub.protocol && !ua.port && !ub.port));
}

const NOT_HTML =
  /\.(pdf|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|css|js|mjs|map|json|xml|rss|atom|txt|csv|zip|gz|tgz|bz2|7z|rar|tar|mp4|webm|mov|avi|mkv|mp3|wav|ogg|flac|m4a|woff2?|ttf|otf|eot|docx?|xlsx?|pptx?|odt|exe|dmg|pkg|deb|rpm|apk|iso|bin|wasm)$/i;

/** Links whose path says they are not pages are skipped without a request. */
export function looksLikeNonHtml(url: string): boolean {
  return NOT_HTML.test(new URL(url).pathname);
}
