// Faces (the older name is replica): create from a training video, read, list, rename, delete, under
// /v2/replicas (replica_id, replica_name) and /v2/faces (face_id, face_name). Training runs as a job.
import type { ResourceModule } from '../module.js';
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp } from '../../platform/http/app-env.js';
import { conflict } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoMillis } from '../../platform/time.js';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { faceView, ownedFace, palsUsingFace, readableFace, type Naming } from './repository.js';
import { registerBuiltInFaceImages } from './built-in.js';
import { faceAliasRoutes, replicaRoutes } from './routes.js';
import { FACE_TRAINING_ATTEMPTS, FACE_TRAINING_JOB, faceMediaIds, faceTrainingJob, TRAINING_STEPS } from './training.js';

type Routes = typeof replicaRoutes;
type AnyBody = {
  replica_name?: string;
  face_name?: string;
  train_video_url?: string;
  callback_url?: string;
  consent?: { given_by: string; text: string; given_at?: string };
};

function register(app: ApiApp, deps: ServiceDeps, routes: Routes, naming: Naming): void {
  const { db, clock } = deps;
  /** The owner's reads carry links it can show (media/access.ts). */
  const links = () => ({ secrets: deps.secrets, now: clock.now() });
  const idOf = (params: unknown) => (params as Record<string, string>)[naming === 'replica' ? 'replica_id' : 'face_id']!;
  // One handler set serves both namings; the route objects differ only in names, so the typed context
  // is read through these small casts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const a = app as unknown as { openapi(route: unknown, handler: (c: any) => Promise<Response>): void };

  a.openapi(routes.create, async (c) => {
    const body = c.req.valid('json') as AnyBody;
    const now = clock.now();
    const faceId = newId('r');
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('faces')
        .values({
          face_id: faceId,
          owner_id: c.get('ownerId'),
          face_name: body.face_name ?? body.replica_name ?? 'Untitled face',
          train_video_url: body.train_video_url!,
          callback_url: body.callback_url ?? null,
          // Who consented, when and to what (recommended; kept with the face, deleted with it).
          consent: body.consent
            ? JSON.stringify({
                given_by: body.consent.given_by,
                text: body.consent.text,
                given_at: isoMillis(body.consent.given_at ? new Date(body.consent.given_at) : now),
                recorded_at: isoMillis(now),
              })
            : null,
          status: 'training',
          training_progress: `0/${TRAINING_STEPS}`,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await deps.jobs.enqueue(FACE_TRAINING_JOB, { face_id: faceId }, { db: trx, maxAttempts: FACE_TRAINING_ATTEMPTS });
      return inserted;
    });
    return c.json(faceView(row, naming, false, deps.config.publicUrl, links()), 200);
  });

  a.openapi(routes.list, async (c) => {
    const { limit, page, verbose } = c.req.valid('query') as { limit: number; page: number; verbose?: string };
    const ownerId = c.get('ownerId') as number;
    // The caller's faces and the built-in (system) ones every owner can use.
    const mine = (eb: ExpressionBuilder<Database, 'faces'>) => eb.or([eb('owner_id', '=', ownerId), eb('face_type', '=', 'system')]);
    const [rows, count] = await Promise.all([
      db
        .selectFrom('faces')
        .selectAll()
        .where(mine)
        .orderBy('created_at', 'desc')
        .orderBy('face_id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      db
        .selectFrom('faces')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(mine)
        .executeTakeFirstOrThrow(),
    ]);
    return c.json(
      { data: rows.map((r) => faceView(r, naming, verbose === 'true', deps.config.publicUrl, links())), total_count: Number(count.n) },
      200,
    );
  });

  a.openapi(routes.get, async (c) => {
    const face = await readableFace(db, c.get('ownerId'), idOf(c.req.valid('param')));
    return c.json(faceView(face, naming, c.req.valid('query').verbose === 'true', deps.config.publicUrl, links()), 200);
  });

  a.openapi(routes.rename, async (c) => {
    const faceId = idOf(c.req.valid('param'));
    const body = c.req.valid('json') as AnyBody;
    await ownedFace(db, c.get('ownerId'), faceId);
    const row = await db
      .updateTable('faces')
      .set({ face_name: (body.face_name ?? body.replica_name)!, updated_at: clock.now() })
      .where('face_id', '=', faceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(faceView(row, naming, false, deps.config.publicUrl, links()), 200);
  });

  a.openapi(routes.delete, async (c) => {
    const faceId = idOf(c.req.valid('param'));
    const ownerId = c.get('ownerId') as number;
    const files = await db.transaction().execute(async (trx) => {
      // The row lock serialises this with PAL writes that lock the face they reference (FOR SHARE).
      const face = await ownedFace(trx, ownerId, faceId, 'update');
      const pals = await palsUsingFace(trx, ownerId, faceId);
      if (pals.length > 0)
        throw conflict(
          `face ${faceId} is the default face of PAL ${pals.join(', ')}; change or delete ${pals.length > 1 ? 'those PALs' : 'that PAL'} first`,
        );
      const gone = await deps.media.remove(trx, faceMediaIds(face));
      await trx.deleteFrom('faces').where('face_id', '=', faceId).execute();
      return gone;
    });
    await deps.media.discard(files);
    return c.json({ deleted: true as const }, 200);
  });
}

export const facesModule: ResourceModule = {
  name: 'faces',
  jobs: (deps) => ({ [FACE_TRAINING_JOB]: faceTrainingJob(deps) }),
  routes(app, deps) {
    register(app, deps, replicaRoutes, 'replica');
    register(app, deps, faceAliasRoutes as unknown as Routes, 'face');
    registerBuiltInFaceImages(app);
  },
};
