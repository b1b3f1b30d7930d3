// S3 and S3-compatible endpoints through the AWS SDK, its connections made by the checked agents.
import type { Delivered, Upload } from './delivery.js';

export async function toS3({ destination: d, key, body, contentType, signal, agents, limits }: Upload): Promise<Delivered> {
  const { PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: d.region ?? 'us-east-1',
    ...(d.endpoint ? { endpoint: d.endpoint, forcePathStyle: true } : {}),
    credentials: {
      accessKeyId: d.credentials.access_key_id ?? '',
      secretAccessKey: d.credentials.secret_access_key ?? '',
      ...(d.credentials.session_token ? { sessionToken: d.credentials.session_token } : {}),
    },
    maxAttempts: 1,
    requestHandler: { httpAgent: agents.http, httpsAgent: agents.https, connectionTimeout: limits.idleMs, requestTimeout: limits.idleMs },
  });
  try {
    await client.send(new PutObjectCommand({ Bucket: d.bucketName, Key: key, Body: body, ContentType: contentType }), {
      abortSignal: signal,
    });
  } finally {
    client.destroy();
  }
  return { storageUri: `s3://${d.bucketName}/${key}` };
}
