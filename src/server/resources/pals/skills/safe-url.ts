// Save-time check of URLs a browser will load for the PAL (the Calendly page of scheduling_embed): https
// only, and never localhost, cloud metadata hosts or private/loopback/link-local/reserved IP literals.
// No DNS lookup is done (the browser, not the service, fetches it).
import { isIP } from 'node:net';
import { AddressPolicy } from '../../../platform/net/address-policy.js';

const publicOnly = new AddressPolicy([]);
const blockedHosts = new Set([
  'localhost',
  'localhost.localdomain',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  '169.254.169.254',
  '100.100.100.200',
  'fd00:ec2::254',
]);

/** Undefined when the URL is acceptable, else why not. */
export function unsafeBrowserUrl(value: string): string | undefined {
  if (!/^https:\/\//i.test(value)) return 'must start with https://';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (blockedHosts.has(host) || host.endsWith('.localhost') || host.endsWith('.internal')) return `host ${host} is not allowed`;
  if (isIP(host) && !publicOnly.permits(host)) return `address ${host} is not allowed`;
  return undefined;
}
