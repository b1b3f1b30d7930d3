// Delivery into the customer's bucket: S3 and S3-compatible endpoints (AWS SDK), Azure Blob
// (@azure/storage-blob) and Google Cloud Storage (its JSON API's multipart upload through the guarded
// fetch). Every connection goes through the outbound address policy, endpoints inside connection strings
// included: the SDKs get checked agents (`platform/net/checked-agent.ts`), so redirects and DNS answers
// are checked at connect time, answers are capped (an error body is read to a small cap, not buffered
// whole) and a destination that stops answering is dropped after an idle timeout.
import { createCheckedAgents } from '../../platform/net/checked-agent.js';
import { toS3 } from './to-s3.js';
import { toAzure } from './to-azure.js';
import { toGcs } from './to-gcs.js';
import { DeliveryError, MAX_ANSWER_BYTES, type Delivered, type DeliveryLimits, type Destination, type Upload } from './delivery.js';

export { DeliveryError, MAX_ANSWER_BYTES, type Delivered, type DeliveryLimits, type Destination } from './delivery.js';

export async function deliver(
  destination: Destination,
  key: string,
  body: Buffer,
  contentType: string,
  signal: AbortSignal,
  limits: DeliveryLimits,
): Promise<Delivered> {
  const agents = createCheckedAgents(limits.outboundAllow, { idleMs: limits.idleMs, maxResponseBytes: MAX_ANSWER_BYTES });
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(limits.timeoutMs)]);
  // An SDK that ignores the signal still loses its connections.
  const drop = () => agents.destroy();
  deadline.addEventListener('abort', drop, { once: true });
  const upload: Upload = { destination, key, body, contentType, signal: deadline, agents, limits };
  try {
    if (destination.provider === 's3') return await toS3(upload);
    if (destination.provider === 'gcs') return await toGcs(upload);
    return await toAzure(upload);
  } catch (error) {
    // The policy's own refusal names the cause better than the SDK's wrapping of it.
    const refusal = agents.refusal();
    if (refusal) throw new DeliveryError(refusal.code, refusal.message);
    if (deadline.aborted && !signal.aborted)
      throw new DeliveryError('outbound_timeout', `the destination did not finish within ${limits.timeoutMs} ms`);
    throw asDeliveryError(error);
  } finally {
    deadline.removeEventListener('abort', drop);
    agents.destroy();
  }
}

function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = error as {
    name?: string;
    code?: string | number;
    Code?: string;
    message?: string;
    statusCode?: number;
    $metadata?: { httpStatusCode?: number };
  };
  const code = String(
    e.Code ??
      (typeof e.code === 'string' && e.code ? e.code : undefined) ??
      (e.name && e.name !== 'Error' ? e.name : undefined) ??
      (e.code ? `http_${e.code}` : 'delivery_failed'),
  );
  // Never echo a SAS signature or key that a client library put in its message.
  const message = (e.message ?? String(error))
    .replace(/(sig|signature|X-Amz-Signature|AccountKey)=[^&\s;]+/gi, '$1=…')
    .replace(/\s+/g, ' ')
    .slice(0, 500);
  return new DeliveryError(code, message);
}
