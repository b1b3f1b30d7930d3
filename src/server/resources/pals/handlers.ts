// Handlers of /v2/pals and /v2/personas: one set, parameterised by the path's naming.
import type { ServiceDeps } from '../../platform/context.js';
import type { ApiApp } from '../../platform/http/app-env.js';
import { ApiError, badRequest, conflict, describeZodError } from '../../platform/http/errors.js';
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from '../../platform/http/json-patch.js';
import { newId } from '../../platform/ids.js';
import { normalisePal, type PalDocument, type PalPath } from './document.js';
import { editableDocument, ownedPal, palView } from './repository.js';
import { pals, personas } from './routes.js';
import { PalInput } from './schemas.js';

/** A unique violation (two PALs claiming one conferencing username at once) is a conflict, not a 500. */
function uniqueViolation(error: unknown): never {
  if ((error as { code?: string }).code === '23505') throw conflict('the conferencing username is taken');
  throw error;
}

export function registerPalRoutes(app: ApiApp, deps: ServiceDeps, path: PalPath): void {
  const routes = path === 'pals' ? pals : personas;
  const { db, clock } = deps;
  const idOf = (params: unknown) => (params as Record<string, string>)[path === 'pals' ? 'pal_id' : 'persona_id']!;
  const view = (row: Parameters<typeof palView>[0]) => palView(row, path, deps.config.inviteDomain);
  // Both namings share these handlers; the typed context is read through small casts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const a = app as unknown as { openapi(route: unknown, handler: (c: any) => Promise<Response>): void };

  a.openapi(routes.create, async (c) => {
    const input = c.req.valid('json') as PalInput;
    const ownerId = c.get('ownerId') as number;
    const row = await db
      .transaction()
      .execute(async (trx) => {
        const doc = await normalisePal(input, { deps, db: trx, ownerId, path });
        const now = clock.now();
        return trx
          .insertInto('pals')
          .values({
            pal_id: newId('p'),
            owner_id: ownerId,
            pal_name: doc.pal_name,
            pipeline_mode: doc.pipeline_mode,
            default_face_id: doc.default_face_id,
            created_via: path,
            definition: JSON.stringify(doc),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      })
      .catch(uniqueViolation);
    return c.json(view(row), 200);
  });

  a.openapi(routes.list, async (c) => {
    const { limit, page } = c.req.valid('query') as { limit: number; page: number };
    const ownerId = c.get('ownerId') as number;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('pals')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('created_at', 'desc')
        .orderBy('pal_id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      db
        .selectFrom('pals')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow(),
    ]);
    return c.json({ data: rows.map(view), total_count: Number(count.n) }, 200);
  });

  a.openapi(routes.get, async (c) => c.json(view(await ownedPal(db, c.get('ownerId'), idOf(c.req.valid('param')))), 200));

  a.openapi(routes.patch, async (c) => {
    const palId = idOf(c.req.valid('param'));
    const operations = c.req.valid('json') as JsonPatchOperation[];
    const ownerId = c.get('ownerId') as number;
    const row = await db
      .transaction()
      .execute(async (trx) => {
        const current = await ownedPal(trx, ownerId, palId, true);
        const previous = current.definition as unknown as PalDocument;
        let patched: unknown;
        try {
          patched = applyJsonPatch(editableDocument(previous, path), operations);
        } catch (error) {
          if (error instanceof JsonPatchError) throw badRequest(`invalid_patch: ${error.message}`);
          throw error;
        }
        const parsed = PalInput.safeParse(patched);
        if (!parsed.success) throw new ApiError(400, describeZodError(parsed.error));
        const doc = await normalisePal(parsed.data, { deps, db: trx, ownerId, path, previous, palId });
        return trx
          .updateTable('pals')
          .set({
            pal_name: doc.pal_name,
            pipeline_mode: doc.pipeline_mode,
            default_face_id: doc.default_face_id,
            definition: JSON.stringify(doc),
            updated_at: clock.now(),
          })
          .where('pal_id', '=', palId)
          .returningAll()
          .executeTakeFirstOrThrow();
      })
      .catch(uniqueViolation);
    return c.json(view(row), 200);
  });

  a.openapi(routes.delete, async (c) => {
    const palId = idOf(c.req.valid('param'));
    await db.transaction().execute(async (trx) => {
      await ownedPal(trx, c.get('ownerId'), palId, true);
      // As a face in use by a PAL cannot be deleted, a PAL that powers deployments cannot either: deleting
      // it would leave public entry points that can only fail. The caller deletes them or points them at
      // another PAL first.
      const using = await trx
        .selectFrom('deployments')
        .select('deployment_id')
        .where('pal_id', '=', palId)
        .orderBy('deployment_id')
        .execute();
      if (using.length) {
        throw conflict(
          `PAL ${palId} powers deployment${using.length === 1 ? '' : 's'} ${using.map((d) => d.deployment_id).join(', ')}; delete them or point them at another PAL first`,
        );
      }
      await trx.deleteFrom('pals').where('pal_id', '=', palId).execute();
    });
    return c.json({ deleted: true as const }, 200);
  });
}
