// Recording destinations in SQL: ownership checks, the wire view (credentials never leave) and the
// decrypted form the copy job uses, with the endpoint's addresses checked like every outbound fetch.
import { lookup } from 'node:dns/promises';
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import { AddressPolicy } from '../../platform/net/address-policy.js';
import { isoMillis } from '../../platform/time.js';
import { DeliveryError, type Destination } from '../../providers/storage/uploaders.js';

type Row = {
  destination_id: string;
  name: string | null;
  provider: Destination['provider'];
  bucket_name: string;
  region: string | null;
  endpoint: string | null;
  prefix: string;
  created_at: Date;
};

export const destinationView = (d: Row) => ({
  destination_id: d.destination_id,
  name: d.name,
  provider: d.provider,
  bucket_name: d.bucket_name,
  region: d.region,
  endpoint: d.endpoint,
  prefix: d.prefix,
  credentials_set: true as const,
  created_at: isoMillis(d.created_at),
});

export async function ownedDestination(db: Db, ownerId: number, destinationId: string) {
  const row = await db
    .selectFrom('recording_destinations')
    .select(['destination_id', 'owner_id', 'name', 'provider', 'bucket_name', 'region', 'endpoint', 'prefix', 'created_at'])
    .where('destination_id', '=', destinationId)
    .executeTakeFirst();
  if (!row) throw notFound(`recording destination ${destinationId} not found`);
  if (row.owner_id !== ownerId) throw forbidden(`recording destination ${destinationId} belongs to another account`);
  return row;
}

/** The destination with its credentials, for delivery; undefined when it was deleted. */
export async function readDestination(deps: ServiceDeps, destinationId: string): Promise<Destination | undefined> {
  const row = await deps.db.selectFrom('recording_destinations').selectAll().where('destination_id', '=', destinationId).executeTakeFirst();
  if (!row) return undefined;
  if (row.endpoint) await checkEndpoint(deps, row.endpoint);
  return {
    provider: row.provider,
    bucketName: row.bucket_name,
    region: row.region,
    endpoint: row.endpoint,
    credentials: JSON.parse(deps.secrets.decrypt(row.credentials)) as Record<string, string>,
  };
}

/** A custom endpoint may only lead where outbound fetches may (no private ranges unless allowed). */
async function checkEndpoint(deps: ServiceDeps, endpoint: string): Promise<void> {
  const policy = new AddressPolicy(deps.config.outboundAllow);
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) throw new DeliveryError('endpoint_unresolvable', `the destination endpoint ${host} does not resolve`);
  if (!addresses.every((a) => policy.permits(a.address)))
    throw new DeliveryError('endpoint_blocked', `the destination endpoint ${host} is not reachable from this service`);
}
