// Picks and builds the transport for a conversation URL. Daily's code is only fetched by DailyTransport.join().
import { DailyTransport, type CreateCallObject } from './daily.js';
import { LocalTransport, type LocalTransportOptions } from './local.js';
import { transportKindFor, type Transport } from './transport.js';

export interface TransportFactoryOptions {
  local?: LocalTransportOptions;
  createCallObject?: CreateCallObject;
}

export type TransportFactory = (conversationUrl: string) => Transport;

export function createTransportFactory(options: TransportFactoryOptions = {}): TransportFactory {
  return (conversationUrl) =>
    transportKindFor(conversationUrl) === 'daily'
      ? new DailyTransport(options.createCallObject ? { createCallObject: options.createCallObject } : {})
      : new LocalTransport(options.local);
}
