// Built-in faces: drawn by the elements themselves (face_model names which), listed to every owner as
// system faces and usable as any PAL's face. The first is Ada (face-drawing/ada.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('faces').addColumn('face_model', 'text').execute();
  await db
    .insertInto('faces')
    .values({
      face_id: 'rpalkitada',
      owner_id: 0,
      face_name: 'Ada',
      face_type: 'system',
      status: 'completed',
      training_progress: '100/100',
      // A path on this service: made absolute with PALKIT_PUBLIC_URL when read (see faces/media-url.ts).
      thumbnail_image_url: '/faces/palkit-ada.svg',
      model_name: 'palkit:ada',
      face_model: 'palkit:ada',
    })
    .execute();
}
