import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import { Deleted, PageQuery } from '../videos/schemas.js';
import { CreateSpeech, RenameSpeech, Speech, SpeechId, SpeechPage } from './schemas.js';

const tags = ['Speech'];
const params = z.object({ speech_id: SpeechId });

export const createSpeech = keyedRoute({
  method: 'post',
  path: '/v2/speech',
  tags,
  summary: 'Synthesise speech from a script',
  description:
    'Returns at once with status `generating`; the audio is made in the background (steps: synthesise, publish). The `callback_url` receives the speech object when it is `ready` or in `error`. An owner with too many items still generating (10 by default, `PALKIT_GENERATING_PER_OWNER`) is answered 429 with `Retry-After`.',
  request: jsonBody(CreateSpeech),
  responses: { 200: json(Speech, 'The speech item, generating'), ...errors(400, 429) },
});
export const listSpeech = keyedRoute({
  method: 'get',
  path: '/v2/speech',
  tags,
  summary: 'List your speech items, newest first',
  request: { query: PageQuery },
  responses: { 200: json(SpeechPage, 'One page of speech items and the total count'), ...errors(400) },
});
export const getSpeech = keyedRoute({
  method: 'get',
  path: '/v2/speech/{speech_id}',
  tags,
  summary: 'Get a speech item',
  request: { params },
  responses: { 200: json(Speech, 'Speech item'), ...errors(404) },
});
export const renameSpeech = keyedRoute({
  method: 'patch',
  path: '/v2/speech/{speech_id}/name',
  tags,
  summary: 'Rename a speech item',
  request: { params, ...jsonBody(RenameSpeech) },
  responses: { 200: json(Speech, 'Renamed speech item'), ...errors(400, 404) },
});
export const deleteSpeech = keyedRoute({
  method: 'delete',
  path: '/v2/speech/{speech_id}',
  tags,
  summary: 'Delete a speech item and its audio',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(404) },
});
