// Which addresses a connector may name: https anywhere, plain http only for loopback hosts that the
// outbound policy lets the service reach (local development and tests).
import { isIP } from 'node:net';
import { AddressPolicy } from '../../platform/net/address-policy.js';
import { badRequest } from '../../platform/http/errors.js';

export function checkConnectorUrl(field: string, value: string, outboundAllow: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`invalid_request: ${field}: must be an absolute URL`);
  }
  if (url.username || url.password) throw badRequest(`invalid_request: ${field}: must not carry credentials`);
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' ? ['127.0.0.1', '::1'] : isIP(host) && /^(127\.|::1$|::ffff:127\.)/.test(host) ? [host] : [];
    const policy = new AddressPolicy(outboundAllow);
    if (loopback.length && loopback.some((a) => policy.permits(a))) return url.toString();
  }
  throw badRequest(`invalid_request: ${field}: must be an https URL (http only for loopback addresses the service may reach)`);
}
