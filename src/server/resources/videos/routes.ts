import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute, publicRoute } from '../../platform/http/openapi.js';
import { CreateVideo, Deleted, PageQuery, RenameVideo, VerboseVideo, Video, VideoId, VideoPage } from './schemas.js';

const tags = ['Videos'];
const params = z.object({ video_id: VideoId });

export const createVideo = keyedRoute({
  method: 'post',
  path: '/v2/videos',
  tags,
  summary: 'Generate a video of a face speaking a script',
  description:
    "Returns at once with status `generating`; the video is rendered in the background. `generation_progress` counts the steps (speech, background, render, publish). The `callback_url` receives one body when the video is `ready` or in `error`. Videos render a few at a time per instance (`PALKIT_VIDEO_RENDERS`, 1 by default) and one of an owner's at a time; the others wait with status `generating` and `status_details` `Queued` (`queue_position` in a verbose read). An owner with too many videos queued or generating (100 by default, `PALKIT_VIDEO_QUEUE_PER_OWNER`) is answered 429 `too_many_queued` with `Retry-After`.",
  request: jsonBody(CreateVideo),
  responses: { 200: json(Video, 'The video, generating'), ...errors(400, 429) },
});
export const listVideos = keyedRoute({
  method: 'get',
  path: '/v2/videos',
  tags,
  summary: 'List your videos, newest first',
  request: { query: PageQuery },
  responses: { 200: json(VideoPage, 'One page of videos and the total count'), ...errors(400) },
});
export const getVideo = keyedRoute({
  method: 'get',
  path: '/v2/videos/{video_id}',
  tags,
  summary: 'Get a video',
  request: {
    params,
    query: z.object({ verbose: z.enum(['true', 'false']).optional().openapi({ description: 'true adds queue_position' }) }),
  },
  responses: { 200: json(VerboseVideo, 'Video'), ...errors(404, 400) },
});
export const renameVideo = keyedRoute({
  method: 'patch',
  path: '/v2/videos/{video_id}/name',
  tags,
  summary: 'Rename a video',
  request: { params, ...jsonBody(RenameVideo) },
  responses: { 200: json(Video, 'Renamed video'), ...errors(400, 404) },
});
export const deleteVideo = keyedRoute({
  method: 'delete',
  path: '/v2/videos/{video_id}',
  tags,
  summary: 'Delete a video and its files (stops a running generation)',
  request: { params },
  responses: { 200: json(Deleted, 'Deleted'), ...errors(404) },
});
export const hostedVideoPage = publicRoute({
  method: 'get',
  path: '/videos/{video_id}',
  tags,
  summary: 'Page that plays the video (the hosted_url; public by its unguessable id)',
  request: { params },
  responses: {
    200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } },
    404: { description: 'No such video', content: { 'text/html': { schema: z.string() } } },
  },
});
