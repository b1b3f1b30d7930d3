// Videos: a face speaking a script, rendered in the background (generate.ts), listed, renamed,
// deleted, and played on a hosted page.
import type { ResourceModule } from '../module.js';
import { mediaIdOfUrl } from '../media/store.js';
import { notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { hostedPageHeaders, hostedVideoHtml } from './hosted-page.js';
import { QUEUED, VIDEO_JOB, videoGenerationJob } from './generate.js';
import {
  checkVideoQueue,
  nameFromScript,
  ownedVideo,
  progress,
  queuePosition,
  usableFace,
  videoMediaUrls,
  videoView,
} from './repository.js';
import { stopGeneration } from './running-renders.js';
import * as routes from './routes.js';

const GENERATION_ATTEMPTS = 3;

export const videosModule: ResourceModule = {
  name: 'videos',
  jobs: (deps) => ({ [VIDEO_JOB]: videoGenerationJob(deps) }),
  routes(app, deps) {
    const { db, clock, config } = deps;

    app.openapi(routes.createVideo, async (c) => {
      const body = c.req.valid('json');
      const ownerId = c.get('ownerId');
      const faceId = (body.face_id ?? body.replica_id)!;
      await usableFace(db, ownerId, faceId);
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        await checkVideoQueue(trx, ownerId, config.videos.queuePerOwner);
        const inserted = await trx
          .insertInto('videos')
          .values({
            // Long and random: the hosted page and the files are public by this id.
            video_id: newId('v', 24),
            owner_id: ownerId,
            face_id: faceId,
            video_name: body.video_name ?? nameFromScript(body.script),
            script: body.script,
            status: 'generating',
            // Waits for a render slot (config.videos.renders), then speaks: the job says so when it starts.
            status_details: QUEUED,
            generation_progress: progress(0),
            callback_url: body.callback_url ?? null,
            background_url: body.background_url ?? null,
            background_source_url: body.background_source_url ?? null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await deps.jobs.enqueue(
          VIDEO_JOB,
          { video_id: inserted.video_id, owner_id: ownerId },
          { db: trx, maxAttempts: GENERATION_ATTEMPTS },
        );
        return inserted;
      });
      return c.json(videoView(row, config.publicUrl), 200);
    });

    app.openapi(routes.listVideos, async (c) => {
      const { limit, page } = c.req.valid('query');
      const ownerId = c.get('ownerId');
      const [rows, count] = await Promise.all([
        db
          .selectFrom('videos')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .orderBy('created_at', 'desc')
          .orderBy('video_id')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('videos')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow(),
      ]);
      return c.json({ data: rows.map((r) => videoView(r, config.publicUrl)), total_count: Number(count.n) }, 200);
    });

    app.openapi(routes.getVideo, async (c) => {
      const row = await ownedVideo(db, c.get('ownerId'), c.req.valid('param').video_id);
      const view = videoView(row, config.publicUrl);
      if (c.req.valid('query').verbose !== 'true') return c.json(view, 200);
      return c.json({ ...view, queue_position: await queuePosition(db, row, QUEUED) }, 200);
    });

    app.openapi(routes.renameVideo, async (c) => {
      const { video_id } = c.req.valid('param');
      await ownedVideo(db, c.get('ownerId'), video_id);
      const row = await db
        .updateTable('videos')
        .set({ video_name: c.req.valid('json').video_name, updated_at: clock.now() })
        .where('video_id', '=', video_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(videoView(row, config.publicUrl), 200);
    });

    app.openapi(routes.deleteVideo, async (c) => {
      const { video_id } = c.req.valid('param');
      const files = await db.transaction().execute(async (trx) => {
        // Locking the row makes a running generation step wait, then find the row gone and roll back.
        const row = await trx
          .selectFrom('videos')
          .selectAll()
          .where('video_id', '=', video_id)
          .where('owner_id', '=', c.get('ownerId'))
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw notFound(`video ${video_id} not found`);
        const gone = await deps.media.remove(
          trx,
          videoMediaUrls(row)
            .map(mediaIdOfUrl)
            .filter((id) => id !== undefined),
        );
        await trx.deleteFrom('videos').where('video_id', '=', video_id).execute();
        return gone;
      });
      // Its render (if running here) stops now; elsewhere, within the second its poll takes.
      stopGeneration(video_id);
      await deps.media.discard(files);
      return c.json({ deleted: true as const }, 200);
    });

    app.openapi(routes.hostedVideoPage, async (c) => {
      const row = await db.selectFrom('videos').selectAll().where('video_id', '=', c.req.valid('param').video_id).executeTakeFirst();
      const headers = hostedPageHeaders(config.publicUrl);
      if (!row) return c.html('<!doctype html><title>Not found</title><p>No such video.</p>', 404, headers);
      return c.html(hostedVideoHtml(row), 200, headers);
    });
  },
};
