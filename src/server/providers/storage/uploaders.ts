// Delivery into the customer's bucket through each provider's official client: S3 and S3-compatible
// endpoints (AWS SDK), Google Cloud Storage (@google-cloud/storage), Azure Blob (@azure/storage-blob).
// Each client is loaded when a recording is first delivered with it (together they add about a second
// to the service's start).
import type { BlobServiceClient } from '@azure/storage-blob';
import type { StorageProviderName } from '../../platform/db/tables/recordings.js';

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
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const TIMEOUT_MS = 120_000;

export async function deliver(destination: Destination, key: string, body: Buffer, contentType: string, signal: AbortSignal): Promise<Delivered> {
  try {
    if (destination.provider === 's3') return await toS3(destination, key, body, contentType, signal);
    if (destination.provider === 'gcs') return await toGcs(destination, key, body, contentType);
    return await toAzure(destination, key, body, contentType, signal);
  } catch (error) {
    throw asDeliveryError(error);
  }
}

async function toS3(d: Destination, key: string, body: Buffer, contentType: string, signal: AbortSignal): Promise<Delivered> {
  const { PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: d.region ?? 'us-east-1',
    ...(d.endpoint ? { endpoint: d.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: d.credentials.access_key_id ?? '', secretAccessKey: d.credentials.secret_access_key ?? '', ...(d.credentials.session_token ? { sessionToken: d.credentials.session_token } : {}) },
    maxAttempts: 1,
  });
  try {
    await client.send(new PutObjectCommand({ Bucket: d.bucketName, Key: key, Body: body, ContentType: contentType }), { abortSignal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) });
  } finally {
    client.destroy();
  }
  return { storageUri: `s3://${d.bucketName}/${key}` };
}

async function toGcs(d: Destination, key: string, body: Buffer, contentType: string): Promise<Delivered> {
  const credentials = d.credentials.service_account_json ? (JSON.parse(d.credentials.service_account_json) as { client_email?: string; private_key?: string; project_id?: string }) : undefined;
  const { Storage } = await import('@google-cloud/storage');
  const storage = new Storage({
    ...(d.endpoint ? { apiEndpoint: d.endpoint } : {}),
    ...(credentials ? { credentials: { client_email: credentials.client_email, private_key: credentials.private_key }, projectId: credentials.project_id } : {}),
    retryOptions: { autoRetry: false },
  });
  await storage.bucket(d.bucketName).file(key).save(body, { resumable: false, contentType, timeout: TIMEOUT_MS });
  return { storageUri: `gs://${d.bucketName}/${key}` };
}

async function toAzure(d: Destination, key: string, body: Buffer, contentType: string, signal: AbortSignal): Promise<Delivered> {
  const { BlobServiceClient, StorageSharedKeyCredential } = await import('@azure/storage-blob');
  const c = d.credentials;
  let service: BlobServiceClient;
  if (c.connection_string) {
    service = BlobServiceClient.fromConnectionString(c.connection_string);
  } else {
    const account = c.account_name ?? '';
    const url = d.endpoint ?? `https://${account}.blob.core.windows.net`;
    service = c.sas_token
      ? new BlobServiceClient(`${url}?${c.sas_token.replace(/^\?/, '')}`)
      : new BlobServiceClient(url, new StorageSharedKeyCredential(account, c.account_key ?? ''));
  }
  const blob = service.getContainerClient(d.bucketName).getBlockBlobClient(key);
  await blob.uploadData(body, { blobHTTPHeaders: { blobContentType: contentType }, abortSignal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) });
  // The blob's address without any SAS query.
  return { storageUri: blob.url.split('?')[0]! };
}

function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = error as { name?: string; code?: string | number; Code?: string; message?: string; statusCode?: number; $metadata?: { httpStatusCode?: number } };
  const code = String(e.Code ?? (typeof e.code === 'string' && e.code ? e.code : undefined) ?? (e.name && e.name !== 'Error' ? e.name : undefined) ?? (e.code ? `http_${e.code}` : 'delivery_failed'));
  // Never echo a SAS signature or key that a client library put in its message.
  const message = (e.message ?? String(error)).replace(/(sig|signature|X-Amz-Signature|AccountKey)=[^&\s;]+/gi, '$1=…').replace(/\s+/g, ' ').slice(0, 500);
  return new DeliveryError(code, message);
}
