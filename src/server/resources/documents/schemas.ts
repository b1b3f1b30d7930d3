import { z } from '@hono/zod-openapi';

/** Crawl bounds (the spec leaves them open): depth 0–5 link hops from the start page, 1–500 pages. */
export const CRAWL_LIMITS = { depth: { min: 0, max: 5, default: 2 }, max_pages: { min: 1, max: 500, default: 50 } } as const;

const Depth = z.number().int().min(CRAWL_LIMITS.depth.min).max(CRAWL_LIMITS.depth.max);
const MaxPages = z.number().int().min(CRAWL_LIMITS.max_pages.min).max(CRAWL_LIMITS.max_pages.max);

export const CrawlConfig = z.object({ depth: Depth, max_pages: MaxPages }).openapi('CrawlConfig');

export const CrawlRequest = z
  .object({
    depth: Depth.optional().openapi({
      description: `Link hops followed from the start page (${CRAWL_LIMITS.depth.min}–${CRAWL_LIMITS.depth.max}, default ${CRAWL_LIMITS.depth.default})`,
    }),
    max_pages: MaxPages.optional().openapi({
      description: `Pages crawled at most (${CRAWL_LIMITS.max_pages.min}–${CRAWL_LIMITS.max_pages.max}, default ${CRAWL_LIMITS.max_pages.default})`,
    }),
  })
  .strict()
  .openapi('CrawlRequest');

const Tag = z.string().trim().min(1).max(100);
const Tags = z
  .array(Tag)
  .max(50)
  .transform((tags) => [...new Set(tags)]);

export const DocumentStatus = z.enum(['started', 'processing', 'ready', 'error', 'recrawling']);

export const Document = z
  .object({
    document_id: z.string().openapi({ example: 'd8f2k3j4h5g6f7d' }),
    document_name: z.string(),
    document_url: z.string(),
    status: DocumentStatus,
    progress: z
      .number()
      .nullable()
      .openapi({ description: 'Percentage 0–100 while processing; null before processing starts and after it completes' }),
    error_message: z.string().optional().openapi({
      description:
        'Only when status is `error`: file_download_failed, file_format_unsupported, file_size_too_large, file_empty, invalid_file_url, document_processing_failed, website_processing_failed, chunking_failed, embedding_failed, vector_store_failed, contact_support',
    }),
    created_at: z.string(),
    updated_at: z.string(),
    callback_url: z.string().optional().openapi({ description: 'Omitted when none was given at creation' }),
    tags: z.array(z.string()),
    crawl_config: CrawlConfig.optional().openapi({
      description: 'Crawl settings, only for crawled websites (omitted for files); while a recrawl runs, the settings in use for it',
    }),
    crawled_urls: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Pages of the last completed crawl; only for crawled websites, after a crawl completes' }),
    last_crawled_at: z.string().optional().openapi({ description: 'When the last crawl completed; omitted until then' }),
    crawl_count: z.number().int(),
  })
  .openapi('Document');

const HttpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL');

export const CreateDocument = z
  .object({
    document_url: z.string().trim().min(1).max(2048).openapi({
      description: 'A file (PDF, DOCX, HTML, Markdown, plain text; at most 25 MB) or, with `crawl`, the start page of a website',
    }),
    document_name: z.string().trim().min(1).max(255).optional().openapi({ description: 'Defaults to the last segment of the URL' }),
    callback_url: HttpUrl.max(2048)
      .optional()
      .openapi({ description: 'Receives `document.status_changed` callbacks until the document is ready or in error' }),
    tags: Tags.optional(),
    crawl: CrawlRequest.optional().openapi({
      description: 'Crawl a website from document_url (same site, breadth first, robots.txt respected)',
    }),
  })
  .openapi('CreateDocument');

export const UpdateDocument = z
  .object({ document_name: z.string().trim().min(1).max(255).optional(), tags: Tags.optional() })
  .strict()
  .openapi('UpdateDocument');

export const RecrawlDocument = z.object({ crawl: CrawlRequest.optional() }).strict().openapi('RecrawlDocument');

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10).openapi({ description: 'Documents per page (1–100, default 10)' }),
  page: z.coerce.number().int().min(1).default(1).openapi({ description: 'Page number, from 1' }),
  tags: z.string().max(2000).optional().openapi({ description: 'Comma-separated tags: documents carrying any of them' }),
  status: DocumentStatus.optional(),
});

export const DocumentList = z.object({ data: z.array(Document), total_count: z.number().int() }).openapi('DocumentList');

export const SearchDocuments = z
  .object({
    query: z.string().trim().min(1).max(4000),
    document_ids: z.array(z.string().min(1).max(64)).max(100).optional(),
    tags: z.array(Tag).max(50).optional(),
    limit: z.number().int().min(1).max(50).default(5),
  })
  .strict()
  .openapi('SearchDocuments');

export const SearchHit = z
  .object({
    document_id: z.string(),
    document_name: z.string(),
    content: z.string(),
    score: z.number().openapi({ description: 'Cosine similarity, higher is closer' }),
    source_url: z.string().nullable(),
  })
  .openapi('DocumentSearchHit');

export const SearchResult = z.object({ data: z.array(SearchHit) }).openapi('DocumentSearchResult');

export const DocumentId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: 'document_id', in: 'path' }, example: 'd8f2k3j4h5g6f7d' });
