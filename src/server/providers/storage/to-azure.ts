// Azure Blob through @azure/storage-blob. The client is built from the account URL and credential
// (a connection string is parsed by the SDK first), with a pipeline step that hands every request the
// checked agent: the endpoint written inside a connection string goes through the address policy too.
import type { BlobServiceClient, RequestPolicy, RequestPolicyFactory, WebResource } from '@azure/storage-blob';
import type { Delivered, Upload } from './delivery.js';

export async function toAzure({ destination: d, key, body, contentType, signal, agents }: Upload): Promise<Delivered> {
  const { AnonymousCredential, BlobServiceClient: Client, StorageSharedKeyCredential, newPipeline } = await import('@azure/storage-blob');
  const c = d.credentials;
  let url: string;
  let credential: InstanceType<typeof StorageSharedKeyCredential> | InstanceType<typeof AnonymousCredential>;
  if (c.connection_string) {
    // Parsing only: this client sends nothing.
    const parsed: BlobServiceClient = Client.fromConnectionString(c.connection_string);
    url = parsed.url;
    credential = parsed.credential as typeof credential;
  } else {
    const account = c.account_name ?? '';
    const base = d.endpoint ?? `https://${account}.blob.core.windows.net`;
    url = c.sas_token ? `${base}?${c.sas_token.replace(/^\?/, '')}` : base;
    credential = c.sas_token ? new AnonymousCredential() : new StorageSharedKeyCredential(account, c.account_key ?? '');
  }
  const pipeline = newPipeline(credential, { retryOptions: { maxTries: 1 } });
  const throughAgent: RequestPolicyFactory = {
    create: (next: RequestPolicy): RequestPolicy => ({
      sendRequest: (request: WebResource) => {
        request.agent = new URL(request.url).protocol === 'https:' ? agents.https : agents.http;
        return next.sendRequest(request);
      },
    }),
  };
  pipeline.factories.push(throughAgent);
  const blob = new Client(url, pipeline).getContainerClient(d.bucketName).getBlockBlobClient(key);
  await blob.uploadData(body, { blobHTTPHeaders: { blobContentType: contentType }, abortSignal: signal });
  // The blob's address without any SAS query.
  return { storageUri: blob.url.split('?')[0]! };
}
