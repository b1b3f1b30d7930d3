// Deployments in SQL: ownership, the public view (usage counts, the PAL's face thumbnails) and the
// counts the call limits compare against.
import { faceMediaLink } from '../faces/media-url.js';
import { previewExpiry } from '../media/access.js';
import type { Secrets } from '../../platform/secrets.js';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { palAndFaceOf, wantedFaceColumns, wantedFaceId, type PalAndFace } from '../conversations/repository.js';
import { isoMillis } from '../../platform/time.js';
import type { Limits } from './schemas.js';

export type DeploymentRow = Selectable<Database['deployments']>;

export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function findDeployment(db: Db, deploymentId: string, forUpdate = false): Promise<DeploymentRow | undefined> {
  let q = db.selectFrom('deployments').selectAll().where('deployment_id', '=', deploymentId);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The caller's deployment; another owner's is reported as missing. */
export async function ownedDeployment(db: Db, ownerId: number, deploymentId: string, forUpdate = false): Promise<DeploymentRow> {
  const row = await findDeployment(db, deploymentId, forUpdate);
  if (!row || row.owner_id !== ownerId) throw notFound('deployment_not_found');
  return row;
}

/** What a start decides on: the deployment's settings and version, and its PAL with the face a call would use. */
export type StartableDeployment = Pick<
  DeploymentRow,
  | 'deployment_id'
  | 'owner_id'
  | 'pal_id'
  | 'channel'
  | 'status'
  | 'password_hash'
  | 'visitor_token_secret_encrypted'
  | 'customization'
  | 'limits'
  | 'allowed_origins'
  | 'callback_url'
  | 'version'
> & { palAndFace: PalAndFace | null };

/** The deployment a start reads, with its PAL and face, in one query. */
export async function findStartableDeployment(db: Db, deploymentId: string): Promise<StartableDeployment | undefined> {
  const wanted = wantedFaceId();
  const row = await db
    .selectFrom('deployments')
    .leftJoin('pals', (j) => j.onRef('pals.pal_id', '=', 'deployments.pal_id').onRef('pals.owner_id', '=', 'deployments.owner_id'))
    .leftJoin('faces', (j) => j.on('faces.face_id', '=', wanted))
    .select([
      'deployments.deployment_id',
      'deployments.owner_id',
      'deployments.pal_id',
      'deployments.channel',
      'deployments.status',
      'deployments.password_hash',
      'deployments.visitor_token_secret_encrypted',
      'deployments.customization',
      'deployments.limits',
      'deployments.allowed_origins',
      'deployments.callback_url',
      'deployments.version',
      'pals.pal_name',
      ...wantedFaceColumns(wanted),
    ])
    .where('deployments.deployment_id', '=', deploymentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { pal_name, wanted_face_id, face_id, face_owner_id, face_type, face_status, face_rig_url, ...deployment } = row;
  const palAndFace = palAndFaceOf({
    pal_id: pal_name === null ? null : deployment.pal_id,
    pal_name,
    wanted_face_id,
    face_id,
    face_owner_id,
    face_type,
    face_status,
    face_rig_url,
  });
  return { ...deployment, palAndFace };
}

export interface CallCounts {
  /** Calls started since the start of today (UTC). */
  today: number;
  /** Of those, the visitor's. */
  visitorToday: number;
  /** Calls running now (active and their room not yet expired). */
  live: number;
}

/** The counts the call limits compare against, in one query; only those asked for are counted (the others are 0). */
export async function countCalls(
  db: Db,
  deploymentId: string,
  now: Date,
  wanted: { today?: boolean; visitorKey?: string | null; live?: boolean },
): Promise<CallCounts> {
  const calls = () =>
    db
      .selectFrom('conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deployment_id', '=', deploymentId);
  const today = () => calls().where('created_at', '>=', startOfUtcDay(now));
  const visitorKey = wanted.visitorKey;
  const row = await db
    .selectNoFrom((eb) => [
      (wanted.today ? today() : eb.lit(0)).as('today'),
      (visitorKey != null ? today().where('visitor_key', '=', visitorKey) : eb.lit(0)).as('visitor_today'),
      (wanted.live
        ? calls()
            .where('status', '=', 'active')
            .where((w) => w.or([w('expires_at', 'is', null), w('expires_at', '>', now)]))
        : eb.lit(0)
      ).as('live'),
    ])
    .executeTakeFirstOrThrow();
  return { today: Number(row.today), visitorToday: Number(row.visitor_today), live: Number(row.live) };
}

export interface Thumbnails {
  thumbnail_video_url: string | null;
  thumbnail_image_url: string | null;
}

/**
 * The preview media of the PAL's default face (null when the PAL or face is gone), with a token bound to
 * `links.grant` (media/access.ts): the deployment, for its page's visitors; the owner, for its own reads.
 */
export async function thumbnailsFor(
  db: Db,
  palIds: string[],
  publicUrl: string,
  links?: { secrets: Secrets; grant: { deploymentId: string } | { ownerId: number }; now: Date },
): Promise<Map<string, Thumbnails>> {
  const result = new Map<string, Thumbnails>();
  if (palIds.length === 0) return result;
  const rows = await db
    .selectFrom('pals')
    .leftJoin('faces', (j) =>
      j.on(
        'faces.face_id',
        '=',
        sql<string>`coalesce(pals.default_face_id, pals.definition->>'default_face_id', pals.definition->>'default_replica_id')`,
      ),
    )
    .select(['pals.pal_id', 'faces.face_id', 'faces.thumbnail_video_url', 'faces.thumbnail_image_url'])
    .where('pals.pal_id', 'in', palIds)
    .execute();
  for (const r of rows) {
    const link =
      links && r.face_id ? { secrets: links.secrets, faceId: r.face_id, grant: links.grant, expiresAt: previewExpiry(links.now) } : null;
    result.set(r.pal_id, {
      thumbnail_video_url: faceMediaLink(publicUrl, r.thumbnail_video_url ?? null, link),
      thumbnail_image_url: faceMediaLink(publicUrl, r.thumbnail_image_url ?? null, link),
    });
  }
  return result;
}

/** The preview fields as the spec's shapes have them: strings, omitted when the PAL has no face (never null). */
export function thumbnailFields(thumbnails: Thumbnails | undefined): { thumbnail_video_url?: string; thumbnail_image_url?: string } {
  return {
    ...(thumbnails?.thumbnail_video_url ? { thumbnail_video_url: thumbnails.thumbnail_video_url } : {}),
    ...(thumbnails?.thumbnail_image_url ? { thumbnail_image_url: thumbnails.thumbnail_image_url } : {}),
  };
}

/** usage_today of several deployments in one query. */
export async function usageToday(db: Db, deploymentIds: string[], now: Date): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (deploymentIds.length === 0) return result;
  const rows = await db
    .selectFrom('conversations')
    .select(['deployment_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deployment_id', 'in', deploymentIds)
    .where('created_at', '>=', startOfUtcDay(now))
    .groupBy('deployment_id')
    .execute();
  for (const r of rows) if (r.deployment_id) result.set(r.deployment_id, Number(r.n));
  return result;
}

export function deploymentView(row: DeploymentRow, thumbnails: Thumbnails | undefined, today: number) {
  return {
    deployment_id: row.deployment_id,
    pal_id: row.pal_id,
    channel: row.channel,
    status: row.status,
    name: row.name,
    has_password: row.password_hash !== null,
    has_visitor_token_secret: row.visitor_token_secret_encrypted !== null,
    customization: row.customization,
    limits: row.limits as Limits,
    allowed_origins: row.allowed_origins,
    callback_url: row.callback_url,
    ...thumbnailFields(thumbnails),
    usage_total: row.usage_total,
    usage_today: today,
    created_at: isoMillis(row.created_at),
    updated_at: isoMillis(row.updated_at),
  };
}
export type DeploymentView = ReturnType<typeof deploymentView>;

/** The owner's views of its deployments; the face's previews with links for the owner (`secrets` signs them). */
export async function viewsOf(db: Db, rows: DeploymentRow[], now: Date, publicUrl: string, secrets?: Secrets): Promise<DeploymentView[]> {
  const ownerId = rows[0]?.owner_id;
  const links = secrets && ownerId !== undefined ? { secrets, grant: { ownerId }, now } : undefined;
  const [thumbs, today] = await Promise.all([
    thumbnailsFor(db, [...new Set(rows.map((r) => r.pal_id))], publicUrl, links),
    usageToday(
      db,
      rows.map((r) => r.deployment_id),
      now,
    ),
  ]);
  return rows.map((r) => deploymentView(r, thumbs.get(r.pal_id), today.get(r.deployment_id) ?? 0));
}

export const etagOf = (row: Pick<DeploymentRow, 'deployment_id' | 'version'>) => `"${row.deployment_id}-v${row.version}"`;
