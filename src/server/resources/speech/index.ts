// Speech items: a script synthesised into an audio file in the background (generate.ts).
import type { ResourceModule } from '../module.js';
import { notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { mediaIdOfUrl } from '../media/store.js';
import { checkGeneratingCap } from '../media/generating-cap.js';
import { SPEECH_JOB, speechGenerationJob } from './generate.js';
import { ownedSpeech, speechProgress, speechView } from './repository.js';
import { nameFromScript } from '../videos/repository.js';
import * as routes from './routes.js';

const GENERATION_ATTEMPTS = 3;
const DEFAULT_VOICE = 'en-us';

export const speechModule: ResourceModule = {
  name: 'speech',
  jobs: (deps) => ({ [SPEECH_JOB]: speechGenerationJob(deps) }),
  routes(app, deps) {
    const { db, clock } = deps;

    app.openapi(routes.createSpeech, async (c) => {
      const body = c.req.valid('json');
      const script = (body.script ?? body.text)!;
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        await checkGeneratingCap(trx, 'speech', c.get('ownerId'), deps.config.generatingPerOwner);
        const inserted = await trx
          .insertInto('speech')
          .values({
            speech_id: newId('s', 20),
            owner_id: c.get('ownerId'),
            speech_name: body.speech_name ?? nameFromScript(script),
            script,
            voice: body.voice ?? body.language ?? DEFAULT_VOICE,
            audio_format: body.audio_format ?? null,
            status: 'generating',
            generation_progress: speechProgress(0),
            callback_url: body.callback_url ?? null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await deps.jobs.enqueue(SPEECH_JOB, { speech_id: inserted.speech_id }, { db: trx, maxAttempts: GENERATION_ATTEMPTS });
        return inserted;
      });
      return c.json(speechView(row), 200);
    });

    app.openapi(routes.listSpeech, async (c) => {
      const { limit, page } = c.req.valid('query');
      const ownerId = c.get('ownerId');
      const [rows, count] = await Promise.all([
        db
          .selectFrom('speech')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .orderBy('created_at', 'desc')
          .orderBy('speech_id')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('speech')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow(),
      ]);
      return c.json({ data: rows.map(speechView), total_count: Number(count.n) }, 200);
    });

    app.openapi(routes.getSpeech, async (c) =>
      c.json(speechView(await ownedSpeech(db, c.get('ownerId'), c.req.valid('param').speech_id)), 200),
    );

    app.openapi(routes.renameSpeech, async (c) => {
      const { speech_id } = c.req.valid('param');
      await ownedSpeech(db, c.get('ownerId'), speech_id);
      const row = await db
        .updateTable('speech')
        .set({ speech_name: c.req.valid('json').speech_name, updated_at: clock.now() })
        .where('speech_id', '=', speech_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(speechView(row), 200);
    });

    app.openapi(routes.deleteSpeech, async (c) => {
      const { speech_id } = c.req.valid('param');
      const files = await db.transaction().execute(async (trx) => {
        // The row lock makes a running synthesis wait, then find the row gone and roll its audio back.
        const row = await trx
          .selectFrom('speech')
          .selectAll()
          .where('speech_id', '=', speech_id)
          .where('owner_id', '=', c.get('ownerId'))
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw notFound(`speech ${speech_id} not found`);
        const gone = await deps.media.remove(
          trx,
          [mediaIdOfUrl(row.audio_url)].filter((id) => id !== undefined),
        );
        await trx.deleteFrom('speech').where('speech_id', '=', speech_id).execute();
        return gone;
      });
      await deps.media.discard(files);
      return c.json({ deleted: true as const }, 200);
    });
  },
};
