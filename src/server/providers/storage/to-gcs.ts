// Google Cloud Storage: the JSON API's multipart upload, sent through the guarded fetch (its client
// library's transport cannot be given an agent). The official library still makes the access token
// from a service account key; that exchange goes to Google's fixed token endpoint.
import { DeliveryError, MAX_ANSWER_BYTES, type Delivered, type Upload } from './delivery.js';

const DEFAULT_ENDPOINT = 'https://storage.googleapis.com';

export async function toGcs({ destination: d, key, body, contentType, signal, limits }: Upload): Promise<Delivered> {
  const headers: Record<string, string> = {};
  if (d.credentials.service_account_json) headers.authorization = `Bearer ${await accessToken(d.credentials.service_account_json)}`;
  const boundary = `palkit${crypto.randomUUID().replace(/-/g, '')}`;
  const metadata = JSON.stringify({ name: key, contentType });
  const multipart = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n${metadata}\r\n--${boundary}\r\ncontent-type: ${contentType}\r\n\r\n`,
    ),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const base = (d.endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  const url = `${base}/upload/storage/v1/b/${encodeURIComponent(d.bucketName)}/o?uploadType=multipart`;
  const response = await limits.fetch(url, {
    method: 'POST',
    body: multipart,
    signal,
    timeoutMs: limits.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
    redirect: 'manual',
    headers: { ...headers, 'content-type': `multipart/related; boundary=${boundary}` },
  });
  const text = await response.text();
  if (!response.ok) {
    const parsed = safeJson(text) as { error?: { message?: string; errors?: Array<{ reason?: string }> } } | undefined;
    throw new DeliveryError(
      parsed?.error?.errors?.[0]?.reason ?? `http_${response.status}`,
      parsed?.error?.message ?? `Google Cloud Storage answered ${response.status}`,
    );
  }
  return { storageUri: `gs://${d.bucketName}/${key}` };
}

async function accessToken(serviceAccountJson: string): Promise<string> {
  const key = JSON.parse(serviceAccountJson) as { client_email?: string; private_key?: string };
  const { Storage } = await import('@google-cloud/storage');
  // Only the email and key: a token_uri in the file would otherwise choose where the key is sent.
  const storage = new Storage({
    credentials: { client_email: key.client_email, private_key: key.private_key },
    retryOptions: { autoRetry: false },
  });
  const token = await storage.authClient.getAccessToken();
  if (!token) throw new DeliveryError('unauthenticated', 'no access token for the service account');
  return token;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
