// POST /v2/conversations/{id}/frames: a JPEG of the visitor's camera, sent by the elements every few
// seconds while the PAL perceives. The visitor's meeting token authorises it (a frame is the visitor's own
// image, so it is never public); one frame per half interval per conversation is accepted.
import { z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp } from '../../platform/http/app-env.js';
import { ApiError, conflict, notFound, tooManyRequests, unauthorized } from '../../platform/http/errors.js';
import { errors, json, publicRoute, UnauthorizedBody } from '../../platform/http/openapi.js';
import { verifyMeetingToken } from '../../providers/conferencing/meeting-token.js';
import { FRAME_INTERVAL_MS, MAX_FRAMES, perceives, storeFrame } from './perception.js';
import { ConversationPath } from '../../resources/conversations/schemas.js';

export const MAX_FRAME_BYTES = 256 * 1024;
const PATH = '/v2/conversations/:conversation_id/frames';

export const postFrame = publicRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/frames',
  tags: ['Conversations'],
  summary: "Send a camera frame for the PAL's perception (visitor's meeting token)",
  description:
    `While a local conversation is active and its PAL perceives (the room's \`joined\` frame carries \`perception\`), the elements post a JPEG of the visitor's camera ` +
    `every ${FRAME_INTERVAL_MS / 1000} s with \`Authorization: Bearer {meeting_token}\`. At most ${MAX_FRAMES} frames are kept, evenly spread over the call; after the call ` +
    'a vision model summarises them into `application.perception_analysis` and the frames are deleted.',
  request: {
    params: ConversationPath,
    body: { required: true, content: { 'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) } } },
  },
  responses: {
    200: json(z.object({ stored: z.literal(true) }).openapi('FrameStored'), 'Kept for the analysis'),
    401: json(UnauthorizedBody, 'Missing, forged or expired meeting token'),
    ...errors(404, 409, 410, 413, 415, 429),
  },
});

const isJpeg = (bytes: Uint8Array) =>
  bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;

export function registerFrameRoutes(app: ApiApp, deps: ServiceDeps): void {
  app.use(
    PATH,
    cors({
      origin: '*',
      allowMethods: ['POST', 'OPTIONS'],
      allowHeaders: ['authorization', 'content-type'],
      exposeHeaders: ['Retry-After'],
      maxAge: 600,
    }),
  );
  app.use(
    PATH,
    bodyLimit({
      maxSize: MAX_FRAME_BYTES,
      onError: (c) => c.json({ error: `payload_too_large: a frame is limited to ${MAX_FRAME_BYTES} bytes` }, 413, { connection: 'close' }),
    }),
  );

  app.openapi(postFrame, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const token = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    const now = deps.clock.now();
    if (!token || verifyMeetingToken(deps.secrets, conversation_id, token, now) === null) throw unauthorized('Invalid meeting token');
    const conv = await deps.db
      .selectFrom('conversations as c')
      .leftJoin('pals as p', 'p.pal_id', 'c.pal_id')
      .select(['c.status', 'c.provider', 'p.definition', 'p.pipeline_mode'])
      .where('c.conversation_id', '=', conversation_id)
      .executeTakeFirst();
    if (!conv) throw notFound('conversation_not_found');
    if (conv.status !== 'active') throw new ApiError(410, 'conversation_ended');
    if (conv.provider !== 'local' || !perceives(deps, (conv.definition ?? {}) as Record<string, unknown>, conv.pipeline_mode ?? 'full')) {
      throw conflict('perception_off: the PAL of this conversation does not perceive');
    }
    if (!/^image\/jpeg\b/i.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'unsupported_media_type: send image/jpeg');
    const image = new Uint8Array(await c.req.arrayBuffer());
    if (!isJpeg(image)) throw new ApiError(415, 'unsupported_media_type: the body is not a JPEG image');
    const last = await deps.db
      .selectFrom('conversation_frames')
      .select('captured_at')
      .where('conversation_id', '=', conversation_id)
      .orderBy('captured_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const since = last ? now.getTime() - new Date(last.captured_at).getTime() : Infinity;
    if (since < FRAME_INTERVAL_MS / 2) throw tooManyRequests('Too many frames', (FRAME_INTERVAL_MS / 2 - since) / 1000);
    await storeFrame(deps.db, conversation_id, image, now);
    return c.json({ stored: true as const }, 200);
  });
}
