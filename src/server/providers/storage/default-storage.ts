// The default storage of recordings, where every recording is kept about 30 days whatever its
// destination: a folder under the data directory, or the operator's S3-compatible bucket
// (PALKIT_RECORDING_S3_*).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Config } from '../../platform/config.js';

export interface DefaultStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when it is gone. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

export function defaultStorage(config: Config['recording']): DefaultStorage {
  return config.s3 ? bucketStorage(config.s3) : folderStorage(join(config.dir, 'stored'));
}

function folderStorage(root: string): DefaultStorage {
  const path = (key: string) => {
    const full = resolve(root, key);
    if (!full.startsWith(resolve(root) + sep)) throw new Error('recording key outside the storage folder');
    return full;
  };
  return {
    async put(key, body) {
      await mkdir(dirname(path(key)), { recursive: true, mode: 0o700 });
      // A stored call is readable by the service's user only (writeFile's mode applies to a new file).
      await writeFile(path(key), body, { mode: 0o600 });
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(path(key), { force: true });
    },
  };
}

/** The bucket, through the AWS SDK loaded with the first recording stored (it adds a quarter second to a start). */
function bucketStorage(s3: NonNullable<Config['recording']['s3']>): DefaultStorage {
  const sdk = once(async () => {
    const { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      region: s3.region,
      ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
      ...(s3.accessKeyId && s3.secretAccessKey
        ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
        : {}),
    });
    return { client, DeleteObjectCommand, GetObjectCommand, PutObjectCommand };
  });
  return {
    async put(key, body, contentType) {
      const { client, PutObjectCommand } = await sdk();
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      const { client, GetObjectCommand } = await sdk();
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(key) {
      const { client, DeleteObjectCommand } = await sdk();
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    },
  };
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
