// Failures of the ingestion pipeline, each carrying the spec's error code shown in `error_message`.
export type DocumentErrorCode =
  | 'file_download_failed'
  | 'file_format_unsupported'
  | 'file_size_too_large'
  | 'file_empty'
  | 'invalid_file_url'
  | 'document_processing_failed'
  | 'website_processing_failed'
  | 'chunking_failed'
  | 'embedding_failed'
  | 'vector_store_failed'
  | 'contact_support';

export class DocumentError extends Error {
  constructor(
    readonly code: DocumentErrorCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}
