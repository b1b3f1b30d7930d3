// Code only a call needs, which the launcher and the preview do without: the default transports (local
// room, Daily) and the interactions protocol's parser (with its zod schemas). Each is loaded once, on
// first need (the elements ask while the visitor is on the preview); a failed load is tried again next time.
import type { InteractionMessage } from '../../../protocol/interactions.js';

export type InteractionParser = (raw: unknown) => InteractionMessage | null;

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}

export const loadTransports = once(() => import('./select.js').then((m) => m.createTransportFactory()));

export const loadInteractionParser = once((): Promise<InteractionParser> => import('../../../protocol/interactions.js').then((m) => m.parseInteraction));
