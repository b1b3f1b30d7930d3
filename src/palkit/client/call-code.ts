// Code only a call needs, which the launcher, the preview and the gate do without: the default transports
// (local room, Daily) and what a joined call's transport tells the session (with the interactions
// protocol's parser and its zod schemas). Each is loaded once, on first need (the elements ask while the
// visitor is on the preview); a failed load is tried again next time.
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}

export const loadTransports = once(() => import('./transport/select.js').then((m) => m.createTransportFactory()));

export const loadCallEvents = once(() => import('./call-events.js').then((m) => m.listenToCall));
