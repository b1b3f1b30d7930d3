// The default transports (local room, Daily) are code the launcher does not need: they are loaded once,
// on first need (the session asks as soon as the preview shows); a failed load is tried again next time.
import type { TransportFactory } from './select.js';

let transports: Promise<TransportFactory> | null = null;

export function loadTransports(): Promise<TransportFactory> {
  transports ??= import('./select.js').then(
    (m) => m.createTransportFactory(),
    (error: unknown) => {
      transports = null;
      throw error;
    },
  );
  return transports;
}
