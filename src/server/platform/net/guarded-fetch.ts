// The one way the service fetches from other hosts (documents, crawls, callbacks, MCP servers, captcha):
// http/https only; every resolved address checked by the AddressPolicy at connect time (so DNS
// rebinding cannot slip past); redirects followed by hand and re-checked; body size and time capped.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { clockTimeout, systemClock, type Clock } from '../time.js';
import { AddressPolicy } from './address-policy.js';

export class OutboundBlockedError extends Error {
  readonly code = 'outbound_blocked';
}
export class OutboundTooLargeError extends Error {
  readonly code = 'outbound_too_large';
}

export interface GuardedFetchOptions extends Omit<RequestInit, 'redirect'> {
  /** 'follow' (default, at most `maxRedirects`) or 'manual' (redirect responses are returned as they are). */
  redirect?: 'follow' | 'manual';
  maxRedirects?: number;
  /** Abort the whole exchange after this many ms (default 15 s). */
  timeoutMs?: number;
  /** Refuse bodies larger than this (default 25 MB); checked against Content-Length and while reading. */
  maxBytes?: number;
}

export type GuardedFetch = (input: string | URL | Request, init?: GuardedFetchOptions) => Promise<Response>;

/** `clock` times each exchange's `timeoutMs` (the wall clock unless a test gives its own). */
export function createGuardedFetch(allowCidrs: string[], clock: Clock = systemClock): GuardedFetch {
  const policy = new AddressPolicy(allowCidrs);

  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !policy.permits(a.address));
      if (refused || list.length === 0) {
        return callback(new OutboundBlockedError(`address ${refused?.address ?? hostname} is not allowed`), '', 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  async function once(url: URL, init: GuardedFetchOptions, signal: AbortSignal): Promise<Response> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundBlockedError(`scheme ${url.protocol} is not allowed`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !policy.permits(host)) throw new OutboundBlockedError(`address ${host} is not allowed`);
    const headers = new Headers(init.headers);
    // A body is read whole here; a FormData (or URLSearchParams…) body brings its own content type and boundary.
    const encoded = init.body == null ? undefined : new Response(init.body as BodyInit);
    const body = encoded ? Buffer.from(await encoded.arrayBuffer()) : undefined;
    const bodyType = encoded?.headers.get('content-type');
    if (bodyType && !headers.has('content-type')) headers.set('content-type', bodyType);
    if (body) headers.set('content-length', String(body.length));
    const agentModule = url.protocol === 'https:' ? https : http;
    return await new Promise<Response>((resolve, reject) => {
      const req = agentModule.request(
        url,
        { method: init.method ?? 'GET', headers: Object.fromEntries(headers), lookup: guardedLookup, signal, agent: false },
        (res) => {
          const maxBytes = init.maxBytes ?? 25 * 1024 * 1024;
          const declared = Number(res.headers['content-length'] ?? NaN);
          if (declared > maxBytes) {
            res.destroy();
            return reject(new OutboundTooLargeError(`response of ${declared} bytes exceeds ${maxBytes}`));
          }
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > maxBytes) res.destroy(new OutboundTooLargeError(`response exceeds ${maxBytes} bytes`));
          });
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) v.forEach((x) => responseHeaders.append(k, x));
            else if (v !== undefined) responseHeaders.set(k, v);
          }
          const status = res.statusCode ?? 502;
          const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
          if (nullBody) res.resume();
          const response = new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream), { status, headers: responseHeaders });
          Object.defineProperty(response, 'url', { value: url.toString() });
          resolve(response);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    let url = new URL(request ? request.url : input.toString());
    let options: GuardedFetchOptions = request
      ? {
          method: request.method,
          headers: request.headers,
          body: request.body ? await request.arrayBuffer() : undefined,
          signal: request.signal,
          ...init,
        }
      : init;
    const timeout = clockTimeout(clock, options.timeoutMs ?? 15_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const maxRedirects = options.maxRedirects ?? 5;
    for (let hop = 0; ; hop++) {
      const response = await once(url, options, signal);
      const location = response.headers.get('location');
      if (options.redirect === 'manual' || response.status < 300 || response.status > 399 || !location) return response;
      await response.body?.cancel();
      if (hop >= maxRedirects) throw new OutboundBlockedError('too many redirects');
      url = new URL(location, url);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && options.method === 'POST')) {
        options = { ...options, method: 'GET', body: undefined };
      }
    }
  };
}
