// POST /v2/conversations/{id}/rating: the visitor's 1–5 stars and optional comment from the after-call
// screen, authorised by the visitor's meeting token (the visitor rates their own call; nobody else can).
// Given once: stored with the conversation, shown in the verbose read and sent as
// application.conversation_rated, in one transaction.
import { z } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp } from '../../platform/http/app-env.js';
import { conflict, notFound, unauthorized } from '../../platform/http/errors.js';
import { errors, json, publicRoute, UnauthorizedBody } from '../../platform/http/openapi.js';
import { recordConversationCallbacks } from './events-store.js';
import { verifyMeetingToken } from '../../providers/conferencing/meeting-token.js';
import { ConversationPath, ConversationRating, RatingBody } from './schemas.js';

const PATH = '/v2/conversations/:conversation_id/rating';

export const postRating = publicRoute({
  method: 'post',
  path: '/v2/conversations/{conversation_id}/rating',
  tags: ['Conversations'],
  summary: "Rate a conversation (visitor's meeting token)",
  description:
    "The after-call screen posts the visitor's rating with `Authorization: Bearer {meeting_token}`. A conversation is rated once (409 `already_rated` after that); " +
    'the rating appears as `rating` in the verbose read and is sent as `application.conversation_rated`.',
  request: { params: ConversationPath, body: { required: true, content: { 'application/json': { schema: RatingBody } } } },
  responses: {
    200: json(ConversationRating, 'Stored'),
    401: json(UnauthorizedBody, 'Missing, forged or expired meeting token'),
    ...errors(400, 404, 409),
  },
});

export function registerRatingRoutes(app: ApiApp, deps: ServiceDeps): void {
  app.use(PATH, cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['authorization', 'content-type'], maxAge: 600 }));

  app.openapi(postRating, async (c) => {
    const { conversation_id } = c.req.valid('param');
    const token = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    const now = deps.clock.now();
    // Only the visitor rates (an operator's token watches the room; it does not speak for the visitor).
    if (!token || verifyMeetingToken(deps.secrets, conversation_id, token, now) !== 'visitor') throw unauthorized('Invalid meeting token');
    const body = c.req.valid('json');
    const rating = await deps.db.transaction().execute(async (trx) => {
      const conversation = await trx
        .selectFrom('conversations')
        .select(['conversation_id', 'owner_id', 'callback_url'])
        .where('conversation_id', '=', conversation_id)
        .executeTakeFirst();
      if (!conversation) throw notFound('conversation_not_found');
      const inserted = await trx
        .insertInto('conversation_ratings')
        .values({ conversation_id, stars: body.stars, comment: body.comment ?? null, rated_at: now })
        .onConflict((oc) => oc.column('conversation_id').doNothing())
        .returning(['stars', 'comment', 'rated_at'])
        .executeTakeFirst();
      if (!inserted) throw conflict('already_rated: this conversation has been rated');
      const view = { stars: inserted.stars, comment: inserted.comment, rated_at: new Date(inserted.rated_at).toISOString() };
      await recordConversationCallbacks(deps, trx, conversation, [
        {
          conversation_id,
          event_type: 'application.conversation_rated',
          message_type: 'application',
          timestamp: view.rated_at,
          properties: view,
        },
      ]);
      return view;
    });
    return c.json(rating, 200);
  });
}

/** The rating for the verbose read, or null before the visitor rated. */
export async function ratingOf(deps: Pick<ServiceDeps, 'db'>, conversationId: string): Promise<z.infer<typeof ConversationRating> | null> {
  const row = await deps.db
    .selectFrom('conversation_ratings')
    .select(['stars', 'comment', 'rated_at'])
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return row ? { stars: row.stars, comment: row.comment, rated_at: new Date(row.rated_at).toISOString() } : null;
}
