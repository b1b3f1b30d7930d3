// Wire shapes of recording destinations (credentials are write-only) and recordings.
import { z } from '@hono/zod-openapi';

export const StorageProvider = z.enum(['s3', 'gcs', 'azure_blob']);

export const DestinationId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^rd_[A-Za-z0-9]+$/, 'must look like a recording destination id (rd_…)')
  .openapi({ param: { name: 'destination_id', in: 'path' }, example: 'rd_k3m9q2w8e4r7t1y5' });
export const RecordingId = z
  .string()
  .min(2)
  .max(64)
  .regex(/^rec_[A-Za-z0-9]+$/, 'must look like a recording id (rec_…)')
  .openapi({ param: { name: 'recording_id', in: 'path' }, example: 'rec_k3m9q2w8e4r7t1y5' });

const secret = z.string().min(1).max(20_000);

export const DestinationCredentials = z
  .object({
    access_key_id: secret.optional().openapi({ description: 's3: access key id' }),
    secret_access_key: secret.optional().openapi({ description: 's3: secret access key' }),
    session_token: secret.optional().openapi({ description: 's3: session token of temporary credentials' }),
    service_account_json: secret.optional().openapi({ description: 'gcs: the service account key file (JSON text)' }),
    // A name only: it becomes the host of the default endpoint, so nothing that could change the URL's host.
    account_name: z
      .string()
      .regex(/^[a-z0-9]{3,24}$/, 'must be a storage account name (3 to 24 lowercase letters and digits)')
      .optional()
      .openapi({ description: 'azure_blob: storage account name' }),
    account_key: secret.optional().openapi({ description: 'azure_blob: storage account key' }),
    sas_token: secret
      .optional()
      .openapi({ description: 'azure_blob: a SAS token allowing writes to the container (instead of the account key)' }),
    connection_string: secret.optional().openapi({ description: 'azure_blob: a connection string (instead of name and key)' }),
  })
  .strict()
  .openapi('RecordingDestinationCredentials', { description: 'Write-only: stored encrypted, never returned' });

export const CreateRecordingDestination = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    provider: StorageProvider,
    bucket_name: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a bucket or container name')
      .openapi({ description: 'Bucket (s3, gcs) or container (azure_blob)' }),
    region: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9-]+$/, 'must be a region name')
      .optional()
      .openapi({ description: "s3: the bucket's region (default us-east-1)" }),
    endpoint: z
      .string()
      .max(2048)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL')
      .optional()
      .openapi({
        description:
          "An S3-compatible endpoint, a Google Cloud Storage API endpoint, or an Azure Blob service URL (defaults: the provider's own)",
      }),
    prefix: z
      .string()
      .max(512)
      .regex(/^[^\\]*$/, 'must not contain backslashes')
      .optional()
      .openapi({ description: 'Key prefix of delivered recordings' }),
    credentials: DestinationCredentials,
  })
  .superRefine((d, ctx) => {
    const c = d.credentials;
    const missing = (path: string) => ctx.addIssue({ code: 'custom', path: ['credentials', path], message: `required for ${d.provider}` });
    if (d.provider === 's3') {
      if (!c.access_key_id) missing('access_key_id');
      if (!c.secret_access_key) missing('secret_access_key');
    } else if (d.provider === 'gcs') {
      if (!c.service_account_json && !d.endpoint) missing('service_account_json');
      if (c.service_account_json) {
        try {
          const parsed = JSON.parse(c.service_account_json) as { client_email?: unknown; private_key?: unknown };
          if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') throw new Error();
        } catch {
          ctx.addIssue({
            code: 'custom',
            path: ['credentials', 'service_account_json'],
            message: 'must be a service account key (JSON with client_email and private_key)',
          });
        }
      }
    } else if (!c.connection_string && !(c.account_name && (c.account_key || c.sas_token))) {
      missing('account_name');
    }
  })
  .openapi('CreateRecordingDestination');
export type CreateRecordingDestination = z.infer<typeof CreateRecordingDestination>;

export const RecordingDestination = z
  .object({
    destination_id: z.string(),
    name: z.string().nullable(),
    provider: StorageProvider,
    bucket_name: z.string(),
    region: z.string().nullable(),
    endpoint: z.string().nullable(),
    prefix: z.string(),
    credentials_set: z.literal(true).openapi({ description: 'Credentials are stored (they are never returned)' }),
    created_at: z.string(),
  })
  .openapi('RecordingDestination');

export const Recording = z
  .object({
    recording_id: z.string(),
    conversation_id: z.string(),
    status: z.enum(['recording', 'stored', 'copying', 'delivered', 'copy_failed']),
    duration: z.number().nullable().openapi({ description: 'Seconds' }),
    content_type: z.string(),
    size_bytes: z.number().nullable(),
    destination_id: z.string().nullable(),
    s3_key: z.string().nullable().openapi({ description: 'Key of the delivered object in the destination' }),
    copy_attempts: z.number(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable().openapi({ description: 'When the default copy is pruned (about 30 days after the call)' }),
    default_copy_available: z.boolean(),
  })
  .openapi('Recording');

export const RecordingLink = z
  .object({ url: z.string(), expires_at: z.string() })
  .openapi('RecordingDownloadLink', { description: 'A short-lived link to the default copy; needs no key' });
