// Face media kept as a path on this service (the built-in faces' images) is handed out as an absolute
// address, so that customer pages load it from the service, not from themselves. A trained face's files
// (/media/…) are handed to a visitor only with a token bound to the conversation or deployment
// (media/access.ts); the owner reads them with its key at the bare address.
import type { Secrets } from '../../platform/secrets.js';
import { signFaceToken, type FaceGrant } from '../media/access.js';
import { mediaIdOfUrl } from '../media/store.js';

export function faceMediaUrl(publicUrl: string, url: string | null): string | null {
  return url?.startsWith('/') ? `${publicUrl}${url}` : url;
}

/** What signs a face's links: the face, what they are bound to and until when. */
export interface FaceLinkGrant {
  secrets: Secrets;
  faceId: string;
  grant: FaceGrant;
  expiresAt: Date;
}

/** A face file's address for a visitor: this service's media with the grant's token in its path; any other address as faceMediaUrl gives it. */
export function faceMediaLink(publicUrl: string, url: string | null, link: FaceLinkGrant | null): string | null {
  const mediaId = url && (url.startsWith(`${publicUrl}/media/`) || url.startsWith('/media/')) ? mediaIdOfUrl(url) : undefined;
  if (!mediaId || !link) return faceMediaUrl(publicUrl, url);
  return `${publicUrl}/media/t/${signFaceToken(link.secrets, link.faceId, link.grant, link.expiresAt)}/${mediaId}`;
}
