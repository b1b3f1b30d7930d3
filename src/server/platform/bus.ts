// In-process notifications between areas (e.g. the end endpoint telling a live room to shut down).
// Anything another instance must know is also in the database; the bus only makes this instance quick.
import { EventEmitter } from 'node:events';

export interface BusEvents {
  /** A conversation was marked ended in the database (by the end endpoint, a limit, or a room). */
  'conversation.ended': { conversationId: string; reason: string };
}

export class Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  emit<K extends keyof BusEvents>(event: K, payload: BusEvents[K]): void {
    this.emitter.emit(event, payload);
  }
  on<K extends keyof BusEvents>(event: K, listener: (payload: BusEvents[K]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
}
