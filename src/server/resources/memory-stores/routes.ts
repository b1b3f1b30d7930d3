import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import { CreateMemoryStore, CreatePinnedMemory, MemoryStore, MemoryStoreId, PinnedMemory } from './schemas.js';

const tags = ['Memory stores'];
const storeParams = z.object({ memory_store_id: MemoryStoreId });
const memoryParams = storeParams.extend({
  memory_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'memory_id', in: 'path' } }),
});
const Deleted = z.object({ deleted: z.literal(true) });

export const createStore = keyedRoute({
  method: 'post',
  path: '/v2/memory-stores',
  tags,
  summary: 'Create a memory store',
  request: jsonBody(CreateMemoryStore),
  responses: { 200: json(MemoryStore, 'Created store'), ...errors(400, 409) },
});
export const listStores = keyedRoute({
  method: 'get',
  path: '/v2/memory-stores',
  tags,
  summary: 'List your memory stores',
  responses: { 200: json(z.object({ data: z.array(MemoryStore) }), 'Stores') },
});
export const getStore = keyedRoute({
  method: 'get',
  path: '/v2/memory-stores/{memory_store_id}',
  tags,
  summary: 'Get a memory store',
  request: { params: storeParams },
  responses: { 200: json(MemoryStore, 'Store'), ...errors(400, 403, 404) },
});
export const deleteStore = keyedRoute({
  method: 'delete',
  path: '/v2/memory-stores/{memory_store_id}',
  tags,
  summary: 'Delete a memory store and its pinned memories',
  request: { params: storeParams },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 403, 404) },
});
export const createPinned = keyedRoute({
  method: 'post',
  path: '/v2/memory-stores/{memory_store_id}/pinned',
  tags,
  summary: 'Create a pinned memory (at most 30 per store)',
  request: { params: storeParams, ...jsonBody(CreatePinnedMemory) },
  responses: { 200: json(PinnedMemory, 'Pinned memory'), ...errors(400, 403, 404) },
});
export const listPinned = keyedRoute({
  method: 'get',
  path: '/v2/memory-stores/{memory_store_id}/pinned',
  tags,
  summary: 'List pinned memories (oldest first)',
  request: { params: storeParams },
  responses: { 200: json(z.object({ data: z.array(PinnedMemory) }), 'Pinned memories'), ...errors(400, 403, 404) },
});
export const updatePinned = keyedRoute({
  method: 'patch',
  path: '/v2/memory-stores/{memory_store_id}/pinned/{memory_id}',
  tags,
  summary: 'Change a pinned memory',
  request: { params: memoryParams, ...jsonBody(CreatePinnedMemory) },
  responses: { 200: json(PinnedMemory, 'Pinned memory'), ...errors(400, 403, 404) },
});
export const deletePinned = keyedRoute({
  method: 'delete',
  path: '/v2/memory-stores/{memory_store_id}/pinned/{memory_id}',
  tags,
  summary: 'Delete a pinned memory',
  request: { params: memoryParams },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 403, 404) },
});
