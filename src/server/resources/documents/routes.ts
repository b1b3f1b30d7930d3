import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute, UnauthorizedBody } from '../../platform/http/openapi.js';
import {
  CreateDocument,
  Document,
  DocumentId,
  DocumentList,
  ListQuery,
  RecrawlDocument,
  SearchDocuments,
  SearchResult,
  UpdateDocument,
} from './schemas.js';

const tags = ['Documents'];
const params = z.object({ document_id: DocumentId });
const Deleted = z.object({ deleted: z.literal(true) });

export const createDocument = keyedRoute({
  method: 'post',
  path: '/v2/documents',
  tags,
  summary: 'Create a knowledge document from a file URL, or crawl a website',
  description:
    'Processing runs in the background: status `started` → `processing` (progress 0–100) → `ready` or `error`. ' +
    'With `crawl`, the site is crawled breadth first from document_url (same host, robots.txt user-agent `palkit` or `*`). ' +
    'At most 5 crawls run at once per account (429) and an account holds at most 100 crawl-backed documents (400).',
  request: jsonBody(CreateDocument),
  responses: { 200: json(Document, 'Created document (status `started`)'), ...errors(400, 429) },
});
export const listDocuments = keyedRoute({
  method: 'get',
  path: '/v2/documents',
  tags,
  summary: 'List documents (newest first, paged)',
  request: { query: ListQuery },
  responses: { 200: json(DocumentList, 'A page of documents'), ...errors(400) },
});
export const searchDocuments = keyedRoute({
  method: 'post',
  path: '/v2/documents/search',
  tags,
  summary: 'Search the knowledge of your documents',
  description:
    'Ranks chunks of ready documents by cosine similarity to the query. Restrict with document_ids and/or tags (a chunk matches when its document is listed or carries any tag); without either, all your documents are searched.',
  request: jsonBody(SearchDocuments),
  responses: {
    200: json(SearchResult, 'Best chunks first'),
    ...errors(400),
    502: json(z.object({ error: z.string() }), 'The embeddings service failed'),
  },
});
export const getDocument = keyedRoute({
  method: 'get',
  path: '/v2/documents/{document_id}',
  tags,
  summary: 'Get a document',
  request: { params },
  responses: { 200: json(Document, 'Document'), ...errors(404) },
});
export const updateDocument = keyedRoute({
  method: 'patch',
  path: '/v2/documents/{document_id}',
  tags,
  summary: 'Rename a document or change its tags (only these two are updatable)',
  request: { params, ...jsonBody(UpdateDocument) },
  responses: { 200: json(Document, 'Updated document'), ...errors(400, 404) },
});
export const deleteDocument = keyedRoute({
  method: 'delete',
  path: '/v2/documents/{document_id}',
  tags,
  summary: 'Delete a document and its knowledge (a running crawl stops)',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(404) },
});
export const recrawlDocument = keyedRoute({
  method: 'post',
  path: '/v2/documents/{document_id}/recrawl',
  tags,
  summary: 'Crawl the website of a document again',
  description:
    'From `ready` or `error`; at most once an hour per document; counts towards the 5 concurrent crawls. ' +
    '`crawl` overrides the stored settings for this run only. The previous crawl stays searchable until the new one completes; its chunks are replaced only on success.',
  request: { params, body: { required: false, content: { 'application/json': { schema: RecrawlDocument } } } },
  responses: {
    202: json(Document, 'Recrawl initiated (status `recrawling`)'),
    ...errors(400, 409, 429),
    404: json(UnauthorizedBody, 'Document does not exist (`message`)'),
  },
});
