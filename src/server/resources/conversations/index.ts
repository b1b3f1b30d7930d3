// Conversations: keyed create/list/get/end, and their post-call jobs (the job closing a provider's room
// after the end is live's: live/conferencing/close-room.ts).
// (The live room, the local PAL, canvas interactions and callbacks live beside this in their own files.)
import { postCallJobs } from './post-call.js';
import type { ResourceModule } from '../module.js';
import { ApiError } from '../../platform/http/errors.js';
import { createConversation } from './create.js';
import { endConversation } from './end-conversation.js';
import { listConversationEvents } from './events-store.js';
import { ratingOf } from './rating-routes.js';
import { ProviderError } from '../../providers/conferencing/index.js';
import { PAL_UNAVAILABLE_ERROR, PalUnavailableError } from './daily-call-start.js';
import { conversationView, ownedConversation } from './repository.js';
import * as routes from './routes.js';
import { receiptOf } from './receipts.js';
import { loadTurnLatencies } from './turn-latency.js';

export const conversationsModule: ResourceModule = {
  name: 'conversations',
  routes(app, deps) {
    const { db } = deps;

    app.openapi(routes.create, async (c) => {
      const body = c.req.valid('json');
      const palId = body.pal_id ?? body.persona_id;
      if (!palId) throw new ApiError(400, 'invalid_request: pal_id: Required (or persona_id)');
      const faceId = body.face_id ?? body.replica_id;
      try {
        const created = await createConversation(deps, {
          ownerId: c.get('ownerId'),
          palId,
          palField: body.pal_id ? 'pal_id' : 'persona_id',
          faceId,
          faceField: body.face_id ? 'face_id' : 'replica_id',
          conversationName: body.conversation_name,
          callbackUrl: body.callback_url,
          conversationalContext: body.conversational_context,
          customGreeting: body.custom_greeting,
          memoryStores: body.memory_stores,
          properties: body.properties,
        });
        return c.json(created, 200);
      } catch (error) {
        if (error instanceof ProviderError) return c.json({ error: 'conferencing_unavailable: the video room could not be created' }, 502);
        if (error instanceof PalUnavailableError) return c.json({ error: PAL_UNAVAILABLE_ERROR }, 503);
        throw error;
      }
    });

    app.openapi(routes.list, async (c) => {
      const { status, page, limit } = c.req.valid('query');
      let q = db.selectFrom('conversations').where('owner_id', '=', c.get('ownerId'));
      if (status) q = q.where('status', '=', status);
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('conversation_id')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return c.json({ data: rows.map(conversationView), total_count: Number(count.n) }, 200);
    });

    app.openapi(routes.get, async (c) => {
      const { conversation_id } = c.req.valid('param');
      const row = await ownedConversation(db, c.get('ownerId'), conversation_id);
      const view = conversationView(row);
      if (c.req.valid('query').verbose === 'true') {
        return c.json(
          {
            ...view,
            rating: await ratingOf(deps, conversation_id),
            receipt: await receiptOf(db, conversation_id),
            turn_latencies: await loadTurnLatencies(db, conversation_id),
            events: await listConversationEvents(db, conversation_id),
          },
          200,
        );
      }
      return c.json(view, 200);
    });

    app.openapi(routes.end, async (c) => {
      const { conversation_id } = c.req.valid('param');
      await ownedConversation(db, c.get('ownerId'), conversation_id);
      await endConversation(deps, conversation_id, 'end_conversation_endpoint_hit');
      return c.json(conversationView(await ownedConversation(db, c.get('ownerId'), conversation_id)), 200);
    });
  },

  jobs(deps) {
    return {
      ...postCallJobs(deps),
    };
  },
};
