// HTTP(S) agents for clients that cannot take the guarded fetch (the storage SDKs): every connection
// they open is checked by the AddressPolicy at connect time — IP literals before connecting, names
// through a lookup that refuses any disallowed address (so DNS rebinding and redirects to another host
// are checked too, as each new connection goes through the agent). A socket that stays silent too long
// or receives more than a small cap is destroyed: these clients only upload, so a large answer is an
// error body they would otherwise buffer whole.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AddressPolicy } from './address-policy.js';
import { OutboundBlockedError, OutboundTooLargeError } from './guarded-fetch.js';

export class OutboundTimeoutError extends Error {
  readonly code = 'outbound_timeout';
}

export interface CheckedAgentLimits {
  /** Destroy a connection that neither sends nor receives for this long. */
  idleMs: number;
  /** Destroy a connection that has received more than this many bytes (headers and body). */
  maxResponseBytes: number;
}

export interface CheckedAgents {
  http: http.Agent;
  https: https.Agent;
  /** The first refusal (blocked address, idle, too large) one of the agents' connections met. */
  refusal(): (OutboundBlockedError | OutboundTooLargeError | OutboundTimeoutError) | undefined;
  /** Destroys every open connection (the work they serve was abandoned). */
  destroy(): void;
}

type Refusal = OutboundBlockedError | OutboundTooLargeError | OutboundTimeoutError;
type CreateConnection = (options: http.ClientRequestArgs, callback: (err: Error | null, socket?: Duplex) => void) => Duplex | undefined;

export function policyLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const refused = addresses.find((a) => !policy.permits(a.address));
      if (refused || addresses.length === 0)
        return callback(new OutboundBlockedError(`address ${refused?.address ?? hostname} is not allowed`), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export function createCheckedAgents(allowCidrs: string[], limits: CheckedAgentLimits): CheckedAgents {
  const policy = new AddressPolicy(allowCidrs);
  const lookup = policyLookup(policy);
  const sockets = new Set<Socket>();
  let first: Refusal | undefined;
  const refuse = (error: Refusal): Refusal => (first ??= error);

  const watch = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('error', (error) => {
      if (error instanceof OutboundBlockedError) refuse(error);
    });
    socket.setTimeout(limits.idleMs, () => socket.destroy(refuse(new OutboundTimeoutError(`no answer for ${limits.idleMs} ms`))));
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxResponseBytes)
        socket.destroy(refuse(new OutboundTooLargeError(`the answer exceeds ${limits.maxResponseBytes} bytes`)));
    });
  };

  /** Wraps an agent's own createConnection with the literal-address check and the socket watch. */
  const checked =
    (create: CreateConnection): CreateConnection =>
    (options, callback) => {
      const host = String(options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
      if (isIP(host) && !policy.permits(host)) {
        callback(refuse(new OutboundBlockedError(`address ${host} is not allowed`)));
        return undefined;
      }
      const socket = create({ ...options, lookup } as http.ClientRequestArgs, callback);
      if (socket) watch(socket as Socket);
      return socket;
    };

  const httpAgent = new http.Agent({ keepAlive: false });
  const httpsAgent = new https.Agent({ keepAlive: false });
  const agentCreate = (agent: http.Agent) => (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
  (httpAgent as unknown as { createConnection: CreateConnection }).createConnection = checked(agentCreate(httpAgent));
  (httpsAgent as unknown as { createConnection: CreateConnection }).createConnection = checked(agentCreate(httpsAgent));

  return {
    http: httpAgent,
    https: httpsAgent,
    refusal: () => first,
    destroy() {
      for (const socket of sockets) socket.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
