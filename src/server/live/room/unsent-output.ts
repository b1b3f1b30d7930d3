// A participant that stops reading must not make the service hold what the room sends it: a socket whose
// unsent output has passed MAX_UNSENT_BYTES is dropped (terminated, no closing handshake it would not
// read either), instead of queueing replies, voice and error frames for it without end.
import type { ServiceMetrics } from '../../platform/metrics.js';

/** Unsent bytes a room socket may hold: several seconds of the PAL's voice, far above what a reading page leaves. */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** What is needed of a socket: a WebSocket (or a relayed one, whose output the instance channel bounds). */
export interface Outlet {
  readonly readyState: number;
  readonly OPEN: number;
  /** Bytes queued and not yet written to the network (a WebSocket's; absent on a relayed socket). */
  readonly bufferedAmount?: number;
  send(data: string | Uint8Array): void;
  terminate?(): void;
}

/**
 * Sends `data` unless the socket is closed or stopped reading; one that stopped is terminated, counted
 * in /metrics, and `dropped` is called. Answers whether it was sent.
 */
export function sendBounded(
  socket: Outlet,
  data: string | Uint8Array,
  metrics: Pick<ServiceMetrics, 'roomSocketsDroppedUnread'>,
  dropped?: () => void,
): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if ((socket.bufferedAmount ?? 0) <= MAX_UNSENT_BYTES) {
    socket.send(data);
    return true;
  }
  if (!socket.terminate) return false;
  socket.terminate();
  metrics.roomSocketsDroppedUnread.inc();
  dropped?.();
  return false;
}
