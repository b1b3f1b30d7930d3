// Migration 1010 on data stored before it (issue 52, N31): uploads become the owner's, a trained face's
// thumbnails and rig become its files, the copy of a training clip that served as the thumbnail video (or a
// photo that served as the still) is dropped and deleted, and a face still training keeps its copy, private.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { classifyExistingMedia } from '../../../../src/server/platform/db/migrations/1010_face_media_access.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

describe('migration 1010: media stored before', () => {
  let t: TestService;
  before(async () => (t = await startTestService({}, { runJobs: false })));
  after(() => t?.close());

  it('sorts media into kinds and drops the clips that were thumbnails', async () => {
    const db = t.service.deps.db;
    const media = (id: string, expires = false) => ({
      media_id: id,
      owner_id: 1,
      content_type: 'application/octet-stream',
      bytes: new Uint8Array([1, 2, 3]),
      size: 3,
      expires_at: expires ? new Date(Date.now() + 3600_000) : null,
    });
    await db
      .insertInto('media')
      .values(
        ['mdclip.mp4', 'mdstill.jpg', 'mdrig.json', 'mdidle.jpg', 'mdphoto.jpg', 'mdphotorig.json', 'mdtraining.mp4', 'mdrender.mp4']
          .map((id) => media(id))
          .concat([media('mdupload.mp4', true)]),
      )
      .execute();
    const face = (id: string, status: string, video: string | null, image: string | null, details: Record<string, unknown>) => ({
      face_id: id,
      owner_id: 1,
      face_name: id,
      train_video_url: 'https://x.example/v.mp4',
      callback_url: null,
      status,
      error_message: null,
      thumbnail_video_url: video,
      thumbnail_image_url: image,
      model_name: null,
      training_details: JSON.stringify(details),
    });
    const url = (id: string) => `${t.service.deps.config.publicUrl}/media/${id}`;
    await db
      .insertInto('faces')
      .values([
        face('rclip', 'completed', url('mdclip.mp4'), url('mdstill.jpg'), {
          video_media_id: 'mdclip.mp4',
          rig: { url: url('mdrig.json'), media_ids: ['mdidle.jpg', 'mdrig.json'] },
        }),
        face('rphoto', 'completed', null, url('mdphoto.jpg'), {
          video_media_id: 'mdphoto.jpg',
          rig: { url: url('mdphotorig.json'), media_ids: ['mdphotorig.json'] },
        }),
        face('rtraining', 'training', url('mdtraining.mp4'), null, { video_media_id: 'mdtraining.mp4' }),
      ])
      .execute();

    await classifyExistingMedia(db);

    const rows = Object.fromEntries(
      (await db.selectFrom('media').select(['media_id', 'access', 'face_id']).execute()).map((r) => [
        r.media_id,
        `${r.access}:${r.face_id ?? ''}`,
      ]),
    );
    assert.equal(rows['mdupload.mp4'], 'owner:');
    assert.equal(rows['mdrender.mp4'], 'public:');
    assert.equal(rows['mdstill.jpg'], 'face:rclip');
    assert.equal(rows['mdrig.json'], 'face:rclip');
    assert.equal(rows['mdidle.jpg'], 'face:rclip');
    assert.equal(rows['mdphotorig.json'], 'face:rphoto');
    assert.equal(rows['mdtraining.mp4'], 'private:rtraining', 'a face in training keeps its copy, served to nobody');
    assert.equal(rows['mdclip.mp4'], undefined, 'the clip that was the thumbnail video is deleted');
    assert.equal(rows['mdphoto.jpg'], undefined, 'the photo that was the still is deleted');
    const faces = Object.fromEntries(
      (
        await db
          .selectFrom('faces')
          .select(['face_id', 'thumbnail_video_url', 'thumbnail_image_url'])
          .where('face_id', 'in', ['rclip', 'rphoto', 'rtraining'])
          .execute()
      ).map((f) => [f.face_id, f]),
    );
    assert.equal(faces.rclip!.thumbnail_video_url, null);
    assert.equal(faces.rclip!.thumbnail_image_url, url('mdstill.jpg'), 'the still extracted from the clip stays');
    assert.equal(faces.rphoto!.thumbnail_image_url, null);
    assert.equal(faces.rtraining!.thumbnail_video_url, null, 'no face shows its copy, training or not');
  });
});
