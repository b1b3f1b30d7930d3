// Deployments: keyed management (create, list, get with ETag, JSON Patch with If-Match, delete) and
// the public init/start endpoints the widget, embed and landing page call.
import type { Db } from '../../platform/db/database.js';
import type { ResourceModule } from '../module.js';
import { ApiError, badRequest, forbidden } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { findOwnedPal } from '../conversations/repository.js';
import { conferencingProvider, ProviderError } from '../../providers/conferencing/index.js';
import { PAL_UNAVAILABLE_ERROR, PalUnavailableError } from '../conversations/daily-call-start.js';
import { unavailableReason } from './availability.js';
import { captchaFor } from './captcha.js';
import { clientAddress, clientKey } from './client-address.js';
import { originMayLoad, publicCors } from './cors.js';
import { hashPassword } from './password.js';
import { ifMatchHolds, planPatch } from './patch.js';
import { etagOf, findDeployment, ownedDeployment, thumbnailFields, thumbnailsFor, viewsOf } from './repository.js';
import * as routes from './routes.js';
import { normaliseOrigin, type Limits } from './schemas.js';
import { passGate, signGatePass } from './gate.js';
import { startableDeployment, startDeployment } from './start.js';
import { checkRecordingCustomization, publicCustomization } from './recording.js';

const origins = (list: string[] | undefined) => [...new Set((list ?? []).map((o) => normaliseOrigin(o)!))];

export const deploymentsModule: ResourceModule = {
  name: 'deployments',
  routes(app, deps) {
    const { db, clock } = deps;
    const requirePal = async (conn: Db, ownerId: number, palId: string) => {
      if (!(await findOwnedPal(conn, ownerId, palId))) throw badRequest(`invalid_request: pal_id: PAL ${palId} not found`);
    };

    app.openapi(routes.create, async (c) => {
      const body = c.req.valid('json');
      const ownerId = c.get('ownerId');
      await requirePal(db, ownerId, body.pal_id);
      await checkRecordingCustomization(db, ownerId, body.customization, conferencingProvider(deps));
      const now = clock.now();
      const row = await db
        .insertInto('deployments')
        .values({
          deployment_id: newId('d'),
          owner_id: ownerId,
          pal_id: body.pal_id,
          channel: body.channel,
          status: 'draft',
          name: body.name ?? '',
          password_hash: body.password ? await hashPassword(body.password) : null,
          visitor_token_secret_encrypted: body.visitor_token_secret ? deps.secrets.encrypt(body.visitor_token_secret) : null,
          customization: JSON.stringify(body.customization ?? {}),
          limits: JSON.stringify(body.limits ?? {}),
          allowed_origins: JSON.stringify(origins(body.allowed_origins)),
          callback_url: body.callback_url ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const [view] = await viewsOf(db, [row], now, deps.config.publicUrl, deps.secrets);
      return c.json(view!, 200, { ETag: etagOf(row) });
    });

    app.openapi(routes.list, async (c) => {
      const { page, limit } = c.req.valid('query');
      const ownerId = c.get('ownerId');
      const [rows, count] = await Promise.all([
        db
          .selectFrom('deployments')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .orderBy('created_at', 'desc')
          .orderBy('deployment_id')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('deployments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow(),
      ]);
      return c.json({ data: await viewsOf(db, rows, clock.now(), deps.config.publicUrl, deps.secrets), total_count: Number(count.n) }, 200);
    });

    app.openapi(routes.get, async (c) => {
      const row = await ownedDeployment(db, c.get('ownerId'), c.req.valid('param').deployment_id);
      const [view] = await viewsOf(db, [row], clock.now(), deps.config.publicUrl, deps.secrets);
      return c.json(view!, 200, { ETag: etagOf(row) });
    });

    app.openapi(routes.patch, async (c) => {
      const { deployment_id } = c.req.valid('param');
      const ownerId = c.get('ownerId');
      const ifMatch = c.req.valid('header')['if-match'];
      const operations = c.req.valid('json');
      const row = await db.transaction().execute(async (trx) => {
        // Locked: a concurrent patch waits, then sees the new version (and a stale If-Match fails).
        const current = await ownedDeployment(trx, ownerId, deployment_id, true);
        if (!ifMatchHolds(ifMatch, etagOf(current)))
          throw new ApiError(412, 'precondition_failed: the deployment changed since this ETag was read');
        const [view] = await viewsOf(trx, [current], clock.now(), deps.config.publicUrl, deps.secrets);
        const plan = planPatch(view!, operations);
        if (plan.fields.pal_id !== current.pal_id) await requirePal(trx, ownerId, plan.fields.pal_id);
        await checkRecordingCustomization(trx, ownerId, plan.fields.customization, conferencingProvider(deps));
        const password =
          plan.password === undefined ? {} : { password_hash: plan.password === null ? null : await hashPassword(plan.password) };
        const tokenSecret =
          plan.visitorTokenSecret === undefined
            ? {}
            : { visitor_token_secret_encrypted: plan.visitorTokenSecret === null ? null : deps.secrets.encrypt(plan.visitorTokenSecret) };
        return trx
          .updateTable('deployments')
          .set((eb) => ({
            pal_id: plan.fields.pal_id,
            channel: plan.fields.channel,
            status: plan.fields.status,
            name: plan.fields.name,
            customization: JSON.stringify(plan.fields.customization),
            limits: JSON.stringify(plan.fields.limits),
            allowed_origins: JSON.stringify(origins(plan.fields.allowed_origins)),
            callback_url: plan.fields.callback_url,
            ...password,
            ...tokenSecret,
            version: eb('version', '+', 1),
            updated_at: clock.now(),
          }))
          .where('deployment_id', '=', deployment_id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      const [view] = await viewsOf(db, [row], clock.now(), deps.config.publicUrl, deps.secrets);
      return c.json(view!, 200, { ETag: etagOf(row) });
    });

    app.openapi(routes.remove, async (c) => {
      const { deployment_id } = c.req.valid('param');
      await ownedDeployment(db, c.get('ownerId'), deployment_id);
      await db.deleteFrom('deployments').where('deployment_id', '=', deployment_id).execute();
      return c.json({ deleted: true as const }, 200);
    });

    app.use('/v2/deployments/:deployment_id/init', publicCors);
    app.use('/v2/deployments/:deployment_id/start', publicCors);
    app.use('/v2/deployments/:deployment_id/gate', publicCors);

    app.openapi(routes.gate, async (c) => {
      const row = await startableDeployment(c, c.req.valid('param').deployment_id);
      await passGate(c, row, c.req.valid('json'));
      return c.json(signGatePass(deps.secrets, row, clock.now()), 200);
    });

    app.openapi(routes.init, async (c) => {
      const row = await findDeployment(db, c.req.valid('param').deployment_id);
      if (!row) throw new ApiError(404, 'deployment_not_found');
      if (!originMayLoad(row, c.req.header('origin'), deps.config.publicUrl)) throw forbidden('origin_not_allowed');
      const limits = row.limits as Limits;
      const reason = await unavailableReason(db, row, clock.now(), clientKey(c, clientAddress(c)));
      // The face's derived still and silent preview, with links bound to this deployment for an hour or two.
      const thumbs = (
        await thumbnailsFor(db, [row.pal_id], deps.config.publicUrl, {
          secrets: deps.secrets,
          grant: { deploymentId: row.deployment_id },
          now: clock.now(),
        })
      ).get(row.pal_id);
      return c.json(
        {
          deployment_id: row.deployment_id,
          channel: row.channel,
          customization: publicCustomization(row.customization),
          has_password: row.password_hash !== null,
          ...thumbnailFields(thumbs),
          limits: {
            max_call_duration: limits.max_call_duration ?? null,
            daily_call_limit_per_user: limits.daily_call_limit_per_user ?? null,
          },
          captcha: captchaFor(deps.config, limits),
          is_available: reason === null,
          unavailable_reason: reason,
        },
        200,
      );
    });

    app.openapi(routes.start, async (c) => {
      try {
        return c.json(await startDeployment(c, c.req.valid('param').deployment_id, c.req.valid('json')), 200);
      } catch (error) {
        if (error instanceof ProviderError) return c.json({ error: 'conferencing_unavailable: the video room could not be created' }, 502);
        if (error instanceof PalUnavailableError) return c.json({ error: PAL_UNAVAILABLE_ERROR }, 503);
        throw error;
      }
    });
  },
};
