// A face trained through the service's API (POST /v2/faces) from a photo or clip served on a loopback host.
import { waitUntil, startFileServer } from '../loopback.js';
import type { World } from '../e2e-world.js';
import type { rigMouth } from '../lip-sync.js';

export async function trainFaceFrom(
  world: World,
  name: string,
  media: { body: Buffer; contentType: string; path: string },
): Promise<{ faceId: string; rig: Parameters<typeof rigMouth>[0] }> {
  const files = await startFileServer({ [media.path]: { body: media.body, contentType: media.contentType } });
  try {
    const created = await world.api('POST', '/v2/faces', { face_name: name, train_video_url: `${files.url}${media.path}` });
    if (created.status !== 200) throw new Error(`face: ${created.status} ${JSON.stringify(created.body)}`);
    const faceId = created.body.face_id as string;
    let face: any;
    await waitUntil(
      async () => {
        face = (await world.api('GET', `/v2/faces/${faceId}?verbose=true`)).body;
        return face.status !== 'training';
      },
      180_000,
      `training of face ${faceId}`,
    );
    if (face.status !== 'completed') throw new Error(`face ${faceId} ended ${face.status}: ${face.error_message}`);
    const rig = (await (await fetch(new URL(face.face_rig_url, world.serviceUrl))).json()) as Parameters<typeof rigMouth>[0];
    return { faceId, rig };
  } finally {
    await files.close();
  }
}
