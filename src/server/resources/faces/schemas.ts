// Wire shapes of faces (the older name is replica): one object, shown under either naming.
import { z } from '@hono/zod-openapi';

export const HttpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http or https URL');

const Name = z.string().trim().min(1, 'must not be empty').max(200);

/** The consent a face is made with: recommended on every creation (a face and voice are biometric data). */
export const ConsentInput = z
  .object({
    given_by: z.string().trim().min(1, 'must not be empty').max(200).openapi({
      description: 'Who consented: the person whose face it is (their name, or your identifier for them), or who holds their consent',
    }),
    text: z.string().trim().min(1, 'must not be empty').max(4000).openapi({ description: 'The words they agreed to, as they were shown' }),
    given_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'When they agreed (ISO 8601); defaults to the time of this request' }),
  })
  .strict()
  .openapi('FaceConsentInput', {
    description:
      'Recommended: who consented to this face being made, when, and to what text. Kept with the face and shown in its reads; deleted with it.',
  });

const ConsentView = z
  .object({ given_by: z.string(), text: z.string(), given_at: z.string(), recorded_at: z.string() })
  .openapi('FaceConsent', {
    description: 'The consent recorded when the face was created (recorded_at: when the service received it); omitted when none was given',
  });

const common = {
  thumbnail_video_url: z.string().optional().openapi({
    description:
      'A 3 s preview made from the training clip: no sound, at most 360 px (MP4); omitted until made, and for a photo. Never the clip itself. Its address carries a token of yours for an hour or two; the bare /media/ address needs your x-api-key',
  }),
  thumbnail_image_url: z.string().optional().openapi({
    description:
      'A still made from the clip or photo (JPEG, at most 640 px, without its metadata); omitted until made. Addressed as thumbnail_video_url is',
  }),
  training_progress: z.string().openapi({
    example: '2/6',
    description: '<done>/<total> training steps: download, probe, thumbnail, find the face, build the rig, finish',
  }),
  status: z.enum(['training', 'completed', 'error']),
  error_message: z.string().nullable(),
  model_name: z.string().optional().openapi({ description: 'Model the face was trained on; omitted until training completes' }),
  created_at: z.string().openapi({ example: '2026-11-21T05:30:00.123Z' }),
  updated_at: z.string().openapi({ example: '2026-11-21T05:30:00.123Z' }),
  consent: ConsentView.optional(),
  replica_type: z.enum(['user', 'system']).optional().openapi({ description: 'Only with verbose=true' }),
  face_rig_url: z.string().optional().openapi({
    description:
      "Only with verbose=true, once trained: the face's rig (rig.json, with its idle-loop and mouth sheets beside it), behind a token of yours for an hour or two (visitors get one bound to their conversation). The elements and the video renderer draw the face from it.",
  }),
  face_rig_bytes: z
    .number()
    .int()
    .optional()
    .openapi({ description: "Only with verbose=true, once trained: the rig's size in bytes, all files" }),
  visemes_from_footage: z.array(z.string()).optional().openapi({
    description: "Only with verbose=true, once trained: visemes whose mouth image was taken from the training clip's own frames",
  }),
  visemes_warped: z.array(z.string()).optional().openapi({
    description:
      'Only with verbose=true, once trained: visemes the clip did not show (all but rest, for a photo), made by warping the resting mouth',
  }),
};

export const Replica = z.object({ replica_id: z.string(), replica_name: z.string(), ...common }).openapi('Replica');
export const Face = z.object({ face_id: z.string(), face_name: z.string(), ...common }).openapi('Face');

export const CreateReplica = z
  .object({
    replica_name: Name.optional().openapi({ description: 'Defaults to "Untitled face"' }),
    train_video_url: HttpUrl.openapi({
      description:
        'MP4, MOV, WebM or Matroska video (5–20 s of one person facing the camera, a few seconds of it still with the mouth at rest, the rest speaking), or a JPEG, PNG or WebP photo of one face; at most 100 MB. Only the first 30 s are used.',
    }),
    callback_url: HttpUrl.optional().openapi({ description: 'Receives the training callbacks (ready, error)' }),
    consent: ConsentInput.optional(),
  })
  .strict()
  .openapi('CreateReplica');

export const CreateFace = z
  .object({
    face_name: Name.optional(),
    replica_name: Name.optional().openapi({ description: 'Alias of face_name' }),
    train_video_url: HttpUrl,
    callback_url: HttpUrl.optional(),
    consent: ConsentInput.optional(),
  })
  .strict()
  .openapi('CreateFace');

export const RenameReplica = z.object({ replica_name: Name }).strict().openapi('RenameReplica');
export const RenameFace = z
  .object({ face_name: Name.optional(), replica_name: Name.optional().openapi({ description: 'Alias of face_name' }) })
  .strict()
  .refine((b) => b.face_name !== undefined || b.replica_name !== undefined, { message: 'face_name is required', path: ['face_name'] })
  .openapi('RenameFace');

export const Verbose = z.enum(['true', 'false']).optional().openapi({ description: 'true adds replica_type' });

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  page: z.coerce.number().int().min(1).default(1),
  verbose: Verbose,
});

export const Deleted = z.object({ deleted: z.literal(true) }).openapi('Deleted');
