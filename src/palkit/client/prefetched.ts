// A response fetched before the code that needs it existed, such as the deployment init the script
// tag's light shell fetched to paint its placeholder: handed over so the full element does not ask again.

export interface Prefetched {
  /** The exact URL that was fetched (GET). */
  url: string;
  response: Promise<Response>;
}

/** A fetch that answers the first GET of `prefetched.url` with the earlier response, then fetches normally. */
export function withPrefetched(fetchImpl: typeof fetch, prefetched: Prefetched | null): typeof fetch {
  let pending = prefetched;
  return (input, init) => {
    const earlier = pending;
    if (earlier && (init?.method ?? 'GET') === 'GET' && String(input) === earlier.url) {
      pending = null;
      // A network failure then may be over now: ask again rather than report it.
      return earlier.response.catch(() => fetchImpl(input, init));
    }
    return fetchImpl(input, init);
  };
}
