// What a delivery into the customer's bucket takes and gives back, shared by the provider uploads.
import type { StorageProviderName } from '../../platform/db/tables/recordings.js';
import type { GuardedFetch } from '../../platform/net/guarded-fetch.js';
import type { CheckedAgents } from '../../platform/net/checked-agent.js';

export interface Destination {
  provider: StorageProviderName;
  bucketName: string;
  region: string | null;
  endpoint: string | null;
  credentials: Record<string, string>;
}

export interface Delivered {
  storageUri: string;
}

/** A refusal from the destination, with the provider's code when it gave one. */
export class DeliveryError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DeliveryLimits {
  /** CIDRs the address policy allows although private (PALKIT_OUTBOUND_ALLOW). */
  outboundAllow: string[];
  /** The guarded fetch (Google Cloud Storage goes through it). */
  fetch: GuardedFetch;
  /** The whole upload. */
  timeoutMs: number;
  /** A connection that neither sends nor receives this long is dropped. */
  idleMs: number;
}

/** What a destination may answer: upload answers are small, so anything larger is cut off here. */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** What one provider's upload needs. */
export interface Upload {
  destination: Destination;
  key: string;
  body: Buffer;
  contentType: string;
  signal: AbortSignal;
  agents: CheckedAgents;
  limits: DeliveryLimits;
}
