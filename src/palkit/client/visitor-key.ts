// The visitor's own key for the public start (StartBody.visitor_key): random, made once and kept in the
// page's localStorage, so the service rates starts per visitor rather than per address (an office or a
// school shares one). Where storage is refused (a private window, a sandboxed frame) it lasts the page.
const STORAGE_KEY = 'palkit-visitor-key';
let kept: string | undefined;

function randomKey(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function visitorKey(): string {
  if (kept) return kept;
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (stored && /^[A-Za-z0-9_-]{16,64}$/.test(stored)) return (kept = stored);
    kept = randomKey();
    globalThis.localStorage?.setItem(STORAGE_KEY, kept);
  } catch {
    kept ??= randomKey();
  }
  return kept;
}
