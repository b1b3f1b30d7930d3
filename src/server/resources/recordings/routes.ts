import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import { ConversationId } from '../conversations/schemas.js';
import { CreateRecordingDestination, DestinationId, Recording, RecordingDestination, RecordingId, RecordingLink } from './schemas.js';

const tags = ['Recordings'];
const destinationParams = z.object({ destination_id: DestinationId });
const conversationParams = z.object({ conversation_id: ConversationId });
const recordingParams = conversationParams.extend({ recording_id: RecordingId });
const Deleted = z.object({ deleted: z.literal(true) });

export const createDestination = keyedRoute({
  method: 'post',
  path: '/v2/recording-destinations',
  tags,
  summary: 'Create a storage destination for recordings (S3 or S3-compatible, Google Cloud Storage, Azure Blob)',
  request: jsonBody(CreateRecordingDestination),
  responses: { 200: json(RecordingDestination, 'Created destination (credentials are not returned)'), ...errors(400) },
});
export const listDestinations = keyedRoute({
  method: 'get',
  path: '/v2/recording-destinations',
  tags,
  summary: 'List your recording destinations',
  responses: { 200: json(z.object({ data: z.array(RecordingDestination) }), 'Destinations') },
});
export const getDestination = keyedRoute({
  method: 'get',
  path: '/v2/recording-destinations/{destination_id}',
  tags,
  summary: 'Get a recording destination',
  request: { params: destinationParams },
  responses: { 200: json(RecordingDestination, 'Destination'), ...errors(400, 403, 404) },
});
export const deleteDestination = keyedRoute({
  method: 'delete',
  path: '/v2/recording-destinations/{destination_id}',
  tags,
  summary: 'Delete a recording destination (pending copies to it fail)',
  request: { params: destinationParams },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 403, 404) },
});
export const listRecordings = keyedRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}/recordings',
  tags,
  summary: "List a conversation's recordings",
  request: { params: conversationParams },
  responses: { 200: json(z.object({ data: z.array(Recording) }), 'Recordings, oldest first'), ...errors(400, 403, 404) },
});
export const recordingLink = keyedRoute({
  method: 'get',
  path: '/v2/conversations/{conversation_id}/recordings/{recording_id}/link',
  tags,
  summary: "A short-lived download link to the recording's default copy (PALKIT_RECORDING_LINK_SECONDS, default 300 s)",
  request: { params: recordingParams },
  responses: { 200: json(RecordingLink, 'Link'), ...errors(400, 403, 404, 409, 410) },
});
export const downloadRecording = publicRoute({
  method: 'get',
  path: '/v2/recordings/{recording_id}/download',
  tags,
  summary: 'Download a recording through a signed link',
  request: {
    params: z.object({ recording_id: RecordingId }),
    query: z.object({ expires: z.string().regex(/^\d{1,13}$/), signature: z.string().min(1).max(200) }),
  },
  responses: {
    200: { description: 'The recording (audio/wav)', content: { 'audio/wav': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errors(400, 403, 404, 410),
  },
});
