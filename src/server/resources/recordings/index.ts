// Recordings: the customer's storage destinations, a conversation's recordings, and short-lived links
// to the default copy; the copy and prune jobs (see jobs.ts, store.ts).
import type { ResourceModule } from '../module.js';
import { badRequest, conflict, forbidden, notFound, ApiError } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isoMillis } from '../../platform/time.js';
import { ownedConversation } from '../conversations/repository.js';
import { defaultStorage } from '../../providers/storage/default-storage.js';
import { destinationView, ownedDestination } from './destinations.js';
import { recordingJobs } from './jobs.js';
import * as routes from './routes.js';

const LINK_PURPOSE = 'recording-download';

export const recordingsModule: ResourceModule = {
  name: 'recordings',
  jobs: (deps) => recordingJobs(deps),
  routes(app, deps) {
    const { db, clock, secrets, config } = deps;

    app.openapi(routes.createDestination, async (c) => {
      const body = c.req.valid('json');
      const now = clock.now();
      const row = await db
        .insertInto('recording_destinations')
        .values({
          destination_id: newId('rd_', 16),
          owner_id: c.get('ownerId'),
          name: body.name ?? null,
          provider: body.provider,
          bucket_name: body.bucket_name,
          region: body.region ?? null,
          endpoint: body.endpoint?.replace(/\/+$/, '') ?? null,
          prefix: body.prefix ?? '',
          credentials: secrets.encrypt(JSON.stringify(body.credentials)),
          created_at: now,
          updated_at: now,
        })
        .returning(['destination_id', 'name', 'provider', 'bucket_name', 'region', 'endpoint', 'prefix', 'created_at'])
        .executeTakeFirstOrThrow();
      return c.json(destinationView(row), 200);
    });

    app.openapi(routes.listDestinations, async (c) => {
      const rows = await db
        .selectFrom('recording_destinations')
        .select(['destination_id', 'name', 'provider', 'bucket_name', 'region', 'endpoint', 'prefix', 'created_at'])
        .where('owner_id', '=', c.get('ownerId'))
        .orderBy('created_at')
        .execute();
      return c.json({ data: rows.map(destinationView) }, 200);
    });

    app.openapi(routes.getDestination, async (c) =>
      c.json(destinationView(await ownedDestination(db, c.get('ownerId'), c.req.valid('param').destination_id)), 200),
    );

    app.openapi(routes.deleteDestination, async (c) => {
      const { destination_id } = c.req.valid('param');
      await ownedDestination(db, c.get('ownerId'), destination_id);
      await db.deleteFrom('recording_destinations').where('destination_id', '=', destination_id).execute();
      return c.json({ deleted: true as const }, 200);
    });

    app.openapi(routes.listRecordings, async (c) => {
      const { conversation_id } = c.req.valid('param');
      await ownedConversation(db, c.get('ownerId'), conversation_id);
      const rows = await db
        .selectFrom('recordings')
        .selectAll()
        .where('conversation_id', '=', conversation_id)
        .orderBy('created_at')
        .execute();
      return c.json(
        {
          data: rows.map((r) => ({
            recording_id: r.recording_id,
            conversation_id: r.conversation_id,
            status: r.status,
            duration: r.duration,
            content_type: r.content_type,
            size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
            destination_id: r.destination_id,
            s3_key: r.object_key,
            copy_attempts: r.copy_attempts,
            last_error: r.last_error,
            created_at: isoMillis(r.created_at),
            expires_at: r.expires_at ? isoMillis(r.expires_at) : null,
            default_copy_available: r.status !== 'recording' && !r.default_deleted_at,
          })),
        },
        200,
      );
    });

    app.openapi(routes.recordingLink, async (c) => {
      const { conversation_id, recording_id } = c.req.valid('param');
      await ownedConversation(db, c.get('ownerId'), conversation_id);
      const r = await db
        .selectFrom('recordings')
        .select(['status', 'default_deleted_at'])
        .where('recording_id', '=', recording_id)
        .where('conversation_id', '=', conversation_id)
        .executeTakeFirst();
      if (!r) throw notFound(`recording ${recording_id} not found`);
      if (r.status === 'recording') throw conflict(`recording ${recording_id} is still being recorded`);
      if (r.default_deleted_at)
        throw new ApiError(410, `the default copy of recording ${recording_id} was pruned after the retention window`);
      const expires = String(clock.now().getTime() + config.recording.linkSeconds * 1000);
      const signature = secrets.sign(LINK_PURPOSE, `${recording_id}.${expires}`);
      const url = `${config.publicUrl}/v2/recordings/${recording_id}/download?expires=${expires}&signature=${encodeURIComponent(signature)}`;
      return c.json({ url, expires_at: isoMillis(new Date(Number(expires))) }, 200);
    });

    app.openapi(routes.downloadRecording, async (c) => {
      const { recording_id } = c.req.valid('param');
      const { expires, signature } = c.req.valid('query');
      if (!secrets.verify(LINK_PURPOSE, `${recording_id}.${expires}`, signature)) throw forbidden('invalid download link');
      if (Number(expires) < clock.now().getTime()) throw new ApiError(410, 'this download link has expired');
      const r = await db
        .selectFrom('recordings')
        .select(['default_key', 'content_type', 'default_deleted_at', 'status'])
        .where('recording_id', '=', recording_id)
        .executeTakeFirst();
      if (!r) throw notFound(`recording ${recording_id} not found`);
      if (r.default_deleted_at) throw new ApiError(410, 'the default copy of this recording was pruned');
      const body = r.status === 'recording' ? null : await defaultStorage(config.recording).get(r.default_key);
      if (!body) throw badRequest('the recording is not available');
      return c.body(new Uint8Array(body), 200, {
        'content-type': r.content_type,
        'content-length': String(body.length),
        'cache-control': 'private, no-store',
        'content-disposition': `attachment; filename="${recording_id}.wav"`,
      }) as never;
    });
  },
};
