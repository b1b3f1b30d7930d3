// Test fixtures for things other areas own (faces, PALs). They write rows directly for now; the
// signatures are what a test needs, so they can switch to the faces/PALs API without touching tests.
import { randomBytes } from 'node:crypto';
import type { TestService } from './service.js';

const suffix = () => randomBytes(7).toString('hex');

export interface FaceFixture {
  owner?: number;
  name?: string;
  status?: 'completed' | 'training' | 'error';
  thumbnail_video_url?: string | null;
  thumbnail_image_url?: string | null;
}

/** A trained face of `owner` (default 1); returns its face_id. */
export async function createFace(t: TestService, fixture: FaceFixture = {}): Promise<string> {
  const faceId = 'r' + suffix();
  await t.service.deps.db
    .insertInto('faces')
    .values({
      face_id: faceId,
      owner_id: fixture.owner ?? 1,
      face_name: fixture.name ?? 'Test face',
      status: fixture.status ?? 'completed',
      thumbnail_video_url:
        fixture.thumbnail_video_url === undefined ? `https://cdn.example.com/${faceId}.mp4` : fixture.thumbnail_video_url,
      thumbnail_image_url:
        fixture.thumbnail_image_url === undefined ? `https://cdn.example.com/${faceId}.jpg` : fixture.thumbnail_image_url,
    })
    .execute();
  return faceId;
}

export interface PalFixture {
  owner?: number;
  pal_name?: string;
  system_prompt?: string;
  pipeline_mode?: 'full' | 'echo';
  /** A face id, or null for a PAL without a default face. Default: a new trained face. */
  default_face_id?: string | null;
  /** More fields of the PAL document (disclosure_type, languages, layers …). */
  definition?: Record<string, unknown>;
}

/** A PAL of `owner` (default 1); returns its pal_id and default face id. */
export async function createPal(t: TestService, fixture: PalFixture = {}): Promise<{ palId: string; faceId: string | null }> {
  const owner = fixture.owner ?? 1;
  const faceId = fixture.default_face_id === undefined ? await createFace(t, { owner }) : fixture.default_face_id;
  const palId = 'p' + suffix();
  const document = {
    pal_name: fixture.pal_name ?? 'Test PAL',
    system_prompt: fixture.system_prompt ?? 'You are a helpful test PAL.',
    pipeline_mode: fixture.pipeline_mode ?? 'echo',
    default_face_id: faceId,
    disclosure_type: 'auto',
    ...fixture.definition,
  };
  await t.service.deps.db
    .insertInto('pals')
    .values({
      pal_id: palId,
      owner_id: owner,
      pal_name: document.pal_name,
      pipeline_mode: document.pipeline_mode,
      default_face_id: faceId,
      definition: JSON.stringify(document),
    })
    .execute();
  return { palId, faceId };
}
