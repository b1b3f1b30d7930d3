// Who may read a stored file (media.access, migration 1010):
// - `public`: anyone with its URL, cached for good (rendered videos and their thumbnails, speech: made to share);
// - `owner`: the owner's key only (uploads, under their one-day lifetime);
// - `face`: a face's derived files (still, silent preview, rig): a token bound to a conversation or a deployment,
//   or the owner's key; never cached publicly, gone with the face;
// - `private`: a training clip's copy, read by training itself and never served.
// A face token rides in the path (/media/t/<token>/<media_id>), so that the rig's sheets, named relative to
// rig.json, carry it too, and so that <img> and <video> can use it. It names the face, what it is bound to
// and when it ends, signed with the service's key: `fm.<c|d|o><id>.<face_id>.<unix seconds>.<signature>`.
// The owner's own reads (a face, a deployment, with its key) carry an owner token of an hour or two, so that
// its dashboard can show them in <img>; the bare address with the key works too.
import type { Db } from '../../platform/db/database.js';
import type { Secrets } from '../../platform/secrets.js';

const PURPOSE = 'face-media-token';
const TOKEN = /^fm\.([cdo])([a-z0-9]{1,64})\.([a-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{20,100})$/;

/** What a face token is bound to: a conversation (its room's visitor and PAL), a deployment (its page, before a start) or the owner's read. */
export type FaceGrant = { conversationId: string } | { deploymentId: string } | { ownerId: number };

const BOUND = { c: 'conversationId', d: 'deploymentId', o: 'ownerId' } as const;

/** A deployment's preview links last this long at least, ending on the hour so that init's answer stays the same within it. */
export const PREVIEW_SECONDS = 3600;

export function signFaceToken(secrets: Secrets, faceId: string, grant: FaceGrant, expiresAt: Date): string {
  const bound =
    'conversationId' in grant ? `c${grant.conversationId}` : 'deploymentId' in grant ? `d${grant.deploymentId}` : `o${grant.ownerId}`;
  const body = `${bound}.${faceId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `fm.${body}.${secrets.sign(PURPOSE, body)}`;
}

export interface FaceToken {
  faceId: string;
  grant: FaceGrant;
  expiresAt: Date;
}

/** The token's content when its signature holds (its expiry is the caller's to compare), else null. */
export function readFaceToken(secrets: Secrets, token: string): FaceToken | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const [, kind, id, faceId, seconds, signature] = m as unknown as [string, keyof typeof BOUND, string, string, string, string];
  if (!secrets.verify(PURPOSE, `${kind}${id}.${faceId}.${seconds}`, signature)) return null;
  const grant = (kind === 'o' ? { ownerId: Number(id) } : { [BOUND[kind]]: id }) as FaceGrant;
  return { faceId, grant, expiresAt: new Date(Number(seconds) * 1000) };
}

/** When a deployment's preview links (and an owner's read links) end: an hour or two from now, on the hour. */
export function previewExpiry(now: Date): Date {
  const hour = 3600_000;
  return new Date(Math.ceil((now.getTime() + PREVIEW_SECONDS * 1000) / hour) * hour);
}

/** A conversation's token is good while the conversation is: not ended, its room not expired. Checked for a few seconds at a time. */
export class ConversationCheck {
  readonly #seen = new Map<string, { live: boolean; at: number }>();
  static readonly KEPT_MS = 5000;
  static readonly MAX = 1000;

  constructor(private readonly db: Db) {}

  async live(conversationId: string, now: Date): Promise<boolean> {
    const seen = this.#seen.get(conversationId);
    if (seen && now.getTime() - seen.at < ConversationCheck.KEPT_MS) return seen.live;
    const row = await this.db
      .selectFrom('conversations')
      .select(['status', 'expires_at'])
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    const live = !!row && row.status === 'active' && (row.expires_at === null || row.expires_at > now);
    this.#seen.delete(conversationId);
    this.#seen.set(conversationId, { live, at: now.getTime() });
    if (this.#seen.size > ConversationCheck.MAX) this.#seen.delete(this.#seen.keys().next().value!);
    return live;
  }
}
