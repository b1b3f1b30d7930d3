// The local face trainer, a resumable background job. It learns the face from a clip or a photo:
// 1 download and check it (kept as a private copy that training alone reads, deleted as training ends),
// 2 probe it, 3 derive what visitors may see of it: a still (JPEG, at most 640 px, no metadata) and, for a
// clip, a short silent preview (H.264, at most 360 px, no sound), 4 find the face (landmarks on sampled
// frames; a clip nobody can animate ends here with a message that says what to record instead), 5 build the
// rig (idle loop, mouth poses, a mouth per viseme: see rig/), 6 finish. Steps 4 and 5 run in a process of
// their own (rig/trainer-process.ts), so the landmark model never loads in the service. Each step commits its
// result and `training_progress` together, so a run interrupted at any point resumes after the last committed
// step; the final status, the training callbacks and the copy's deletion are committed in one transaction,
// so a re-run after a crash never sends them twice.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { RetryLater, type JobHandler } from '../../platform/jobs/queue.js';
import { OutboundBlockedError, OutboundTooLargeError } from '../../platform/net/guarded-fetch.js';
import { locateFfmpeg } from '../../platform/media/ffmpeg.js';
import { deriveThumbnails, probeVideo, ToolMissing, VideoUnreadable, withVideoFile, type Thumbnails } from './media-tools.js';
import { isStill, sniffImage, sniffVideoContainer, type VideoContainer } from './video-check.js';
import { scrubText } from '../../platform/log.js';
import { FaceProblem, type Analysis } from './rig/analysis.js';
import { DecodeFailed } from './rig/decode.js';
import type { RigSummary } from './rig/train.js';
import { Trainer, TrainerFailed } from './rig/trainer-process.js';

export const FACE_TRAINING_JOB = 'face.train';
export const TRAINING_STEPS = 6;
export const FACE_VIDEO_MAX_BYTES = 100 * 1024 * 1024;
/** Smaller than any real video: a header alone, an error page or a truncated upload. */
export const FACE_VIDEO_MIN_BYTES = 1024;
export const FACE_MODEL_NAME = 'palkit-rig-1';
export const FACE_TRAINING_ATTEMPTS = 4;

/** A failure that retrying cannot fix: training ends with `error` and this message. */
class TrainingFailure extends Error {}
/** The face was deleted or finished meanwhile: stop quietly. */
class FaceGone extends Error {}

type Details = {
  container?: VideoContainer;
  bytes?: number;
  video_media_id?: string;
  probe?: unknown;
  probe_skipped?: string;
  thumbnail_skipped?: string;
  analysis?: Analysis;
  rig?: RigSummary;
};

/** Media a face owns: its thumbnails, its rig's files and (while it trains) the copy of its clip. */
export function faceMediaIds(face: {
  thumbnail_video_url: string | null;
  thumbnail_image_url: string | null;
  training_details: unknown;
}): string[] {
  const ids = [face.thumbnail_video_url, face.thumbnail_image_url].map((url) => url?.match(/\/media\/([A-Za-z0-9.]+)$/)?.[1]);
  const details = face.training_details as Details | null;
  return [
    ...new Set([
      ...ids.filter((id): id is string => !!id),
      ...(details?.rig?.media_ids ?? []),
      ...(details?.video_media_id ? [details.video_media_id] : []),
    ]),
  ];
}

const progressDone = (progress: string) => Number(progress.split('/')[0]) || 0;

/**
 * Runs a learning step; a face that cannot be learned, a file ffmpeg cannot decode, or a trainer
 * that crashed or hung (a retry would most likely do the same, at the same cost), fails training for good.
 */
async function learning<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FaceProblem) throw new TrainingFailure(error.message);
    if (error instanceof DecodeFailed) throw new TrainingFailure(`the training video is not usable: ${error.message}`);
    if (error instanceof TrainerFailed) throw new TrainingFailure(error.message);
    throw error;
  }
}

export function faceTrainingJob(deps: ServiceDeps): JobHandler<{ face_id: string }> {
  const { db, config } = deps;
  // The learning steps run in a process of their own, one at a time (rig/trainer-process.ts).
  const trainer = new Trainer({ clock: deps.clock });
  /** The pause between steps (PALKIT_FACE_TRAINING_STEP_MS, 0 unless a test slows training down), on the service's Clock. */
  const pause = (signal: AbortSignal) =>
    config.faceTrainingStepMs > 0 ? deps.clock.sleep(config.faceTrainingStepMs, signal) : Promise.resolve();

  /** Commits one step: its side effects (via `work`) and the new progress, only while still training. */
  async function commitStep(faceId: string, done: number, work: (trx: Db) => Promise<Record<string, unknown>>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const face = await trx.selectFrom('faces').select(['status']).where('face_id', '=', faceId).forUpdate().executeTakeFirst();
      if (!face || face.status !== 'training') throw new FaceGone();
      const set = await work(trx);
      await trx
        .updateTable('faces')
        .set({ ...set, training_progress: `${done}/${TRAINING_STEPS}`, updated_at: deps.clock.now() })
        .where('face_id', '=', faceId)
        .execute();
    });
  }

  /** A clip sent to POST /v2/uploads by the face's owner, read from the media store, not over the network. */
  async function uploaded(url: string, ownerId: number): Promise<Uint8Array | null> {
    const prefix = `${config.publicUrl}/media/`;
    if (!url.startsWith(prefix)) return null;
    const media = await deps.media.get(db, url.slice(prefix.length), ownerId);
    if (!media) throw new TrainingFailure('train_video_url names an upload of this service that does not exist (or is not yours)');
    return media.bytes();
  }

  async function download(url: string, ownerId: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; container: VideoContainer }> {
    const own = await uploaded(url, ownerId);
    if (own) return checked(own);
    let response: Response;
    try {
      response = await deps.fetch(url, { maxBytes: FACE_VIDEO_MAX_BYTES, timeoutMs: 120_000, signal });
    } catch (error) {
      if (error instanceof OutboundBlockedError) throw new TrainingFailure(`train_video_url is not reachable: ${error.message}`);
      if (error instanceof OutboundTooLargeError) throw new TrainingFailure('the training video is larger than 100 MB');
      throw error; // network trouble: retried
    }
    if (response.status >= 500 || response.status === 429) throw new Error(`video host answered ${response.status}`);
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new TrainingFailure(`downloading train_video_url failed: the server answered ${response.status}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof OutboundTooLargeError || (error as { cause?: unknown }).cause instanceof OutboundTooLargeError)
        throw new TrainingFailure('the training video is larger than 100 MB');
      throw error;
    }
    return checked(bytes);
  }

  function checked(bytes: Uint8Array): { bytes: Uint8Array; container: VideoContainer } {
    if (bytes.length === 0) throw new TrainingFailure('the training video is empty');
    if (bytes.length < FACE_VIDEO_MIN_BYTES)
      throw new TrainingFailure(`the training video is too small (${bytes.length} bytes) to be a video`);
    const container = sniffVideoContainer(bytes) ?? sniffImage(bytes);
    if (!container)
      throw new TrainingFailure(
        'train_video_url is not a video or a photo: expected an MP4, MOV, WebM or Matroska video, or a JPEG, PNG or WebP photo',
      );
    return { bytes, container };
  }

  async function videoBytes(details: Details): Promise<Uint8Array> {
    const media = await deps.media.get(db, details.video_media_id ?? '');
    if (!media) throw new TrainingFailure('the stored training video is missing');
    return media.bytes();
  }

  /** Ends training: status, progress, and the two callbacks (legacy replica_id body first), atomically. */
  async function finish(faceId: string, outcome: { status: 'completed' } | { status: 'error'; message: string }): Promise<void> {
    const files = await db.transaction().execute(async (trx) => {
      const face = await trx.selectFrom('faces').selectAll().where('face_id', '=', faceId).forUpdate().executeTakeFirst();
      if (!face || face.status !== 'training') return [];
      const now = deps.clock.now();
      const errorMessage = outcome.status === 'error' ? scrubText(outcome.message) : null;
      let gone: string[] = [];
      if (face.callback_url) {
        const status = outcome.status === 'completed' ? 'ready' : 'error';
        const extra = errorMessage === null ? {} : { error_message: errorMessage };
        await deps.webhooks.send({
          ownerId: face.owner_id,
          url: face.callback_url,
          bodies: [
            { replica_id: faceId, status, ...extra },
            { face_id: faceId, status, ...extra },
          ],
          eventType: `face.${status}`,
          db: trx,
        });
      }
      if (outcome.status === 'error') {
        // A failed face keeps no media: nothing will show it.
        gone = await deps.media.remove(trx, faceMediaIds(face));
      } else {
        // The clip's copy has served its purpose: only what was derived from it stays.
        const copy = (face.training_details as Details | null)?.video_media_id;
        if (copy) gone = await deps.media.remove(trx, [copy]);
      }
      await trx
        .updateTable('faces')
        .set({
          status: outcome.status,
          error_message: errorMessage,
          ...(outcome.status === 'completed'
            ? { training_progress: `${TRAINING_STEPS}/${TRAINING_STEPS}`, model_name: FACE_MODEL_NAME }
            : { thumbnail_video_url: null, thumbnail_image_url: null }),
          callback_sent_at: face.callback_url ? now : null,
          updated_at: now,
        })
        .where('face_id', '=', faceId)
        .execute();
      return gone;
    });
    await deps.media.discard(files);
  }

  return async ({ payload, attempt, maxAttempts, signal }) => {
    const faceId = payload.face_id;
    const load = () => db.selectFrom('faces').selectAll().where('face_id', '=', faceId).executeTakeFirst();
    let face = await load();
    if (!face || face.status !== 'training') return; // deleted, or a re-run after the final commit
    try {
      let details: Details = { ...(face.training_details ?? {}) };
      if (progressDone(face.training_progress) < 1) {
        const { bytes, container } = await download(face.train_video_url ?? '', face.owner_id, signal);
        await commitStep(faceId, 1, async (trx) => {
          // Private: training reads it from the store; no route serves it (media/access.ts).
          const { mediaId } = await deps.media.store(trx, {
            ownerId: face!.owner_id,
            contentType: container.contentType,
            bytes,
            extension: container.extension,
            access: 'private',
            faceId,
          });
          details = { container, bytes: bytes.length, video_media_id: mediaId };
          return { training_details: JSON.stringify(details) };
        });
        await pause(signal);
        face = (await load()) ?? face;
      }
      if (progressDone(face.training_progress) < 2) {
        const bytes = await videoBytes(details);
        try {
          details = {
            ...details,
            probe: await withVideoFile(bytes, details.container?.extension ?? 'mp4', (path) =>
              probeVideo(locateFfmpeg(config.ffmpeg), path),
            ),
          };
        } catch (error) {
          if (error instanceof VideoUnreadable) throw new TrainingFailure(`the training video is not usable: ${error.message}`);
          if (!(error instanceof ToolMissing)) throw error;
          details = { ...details, probe_skipped: error.message };
        }
        await commitStep(faceId, 2, async () => ({ training_details: JSON.stringify(details) }));
        await pause(signal);
        face = (await load()) ?? face;
      }
      if (progressDone(face.training_progress) < 3) {
        const bytes = await videoBytes(details);
        const duration = (details.probe as { duration_seconds?: number | null } | undefined)?.duration_seconds ?? 0;
        let derived: Thumbnails | null = null;
        try {
          derived = await withVideoFile(bytes, details.container?.extension ?? 'mp4', (path) =>
            deriveThumbnails(locateFfmpeg(config.ffmpeg), path, { still: isStill(details.container), durationSeconds: duration }),
          );
        } catch (error) {
          if (error instanceof VideoUnreadable) throw new TrainingFailure(`the training video is not usable: ${error.message}`);
          if (!(error instanceof ToolMissing)) throw error;
          // Without ffmpeg nothing can be derived: the face has no thumbnails (and training stops at the next step).
          details = { ...details, thumbnail_skipped: error.message };
        }
        await commitStep(faceId, 3, async (trx) => {
          if (!derived) return { training_details: JSON.stringify(details) };
          const kept = { ownerId: face!.owner_id, access: 'face', faceId } as const;
          const still = await deps.media.store(trx, { ...kept, contentType: 'image/jpeg', bytes: derived.still, extension: 'jpg' });
          const preview = derived.preview
            ? await deps.media.store(trx, { ...kept, contentType: 'video/mp4', bytes: derived.preview, extension: 'mp4' })
            : null;
          return { thumbnail_image_url: still.url, thumbnail_video_url: preview?.url ?? null, training_details: JSON.stringify(details) };
        });
        await pause(signal);
        face = (await load()) ?? face;
      }
      const ffmpeg = locateFfmpeg(config.ffmpeg);
      const extension = details.container?.extension ?? 'mp4';
      if (progressDone(face.training_progress) < 4) {
        if ('missing' in ffmpeg)
          throw new TrainingFailure(`faces cannot be trained on this server: ffmpeg is not installed (${ffmpeg.missing})`);
        const facts = details.probe as { width?: number; height?: number } | undefined;
        const sourceSide = Math.max(facts?.width ?? 0, facts?.height ?? 0);
        const bytes = await videoBytes(details);
        const analysis = await learning(() =>
          withVideoFile(bytes, extension, (path) =>
            trainer.analyse(
              { ffmpeg: ffmpeg.path, path, still: isStill(details.container), ...(sourceSide ? { sourceSide } : {}) },
              signal,
            ),
          ),
        );
        details = { ...details, analysis };
        await commitStep(faceId, 4, async () => ({ training_details: JSON.stringify(details) }));
        face = (await load()) ?? face;
      }
      if (progressDone(face.training_progress) < 5) {
        if ('missing' in ffmpeg)
          throw new TrainingFailure(`faces cannot be trained on this server: ffmpeg is not installed (${ffmpeg.missing})`);
        const analysis = details.analysis;
        if (!analysis) throw new TrainingFailure('the face analysis is missing: train the face again');
        const bytes = await videoBytes(details);
        const files = await learning(() =>
          withVideoFile(bytes, extension, (path) => trainer.makeRig({ ffmpeg: ffmpeg.path, path, analysis }, signal)),
        );
        await commitStep(faceId, 5, async (trx) => {
          const store = (contentType: string, bytes: Uint8Array, ext: string) =>
            deps.media.store(trx, { ownerId: face!.owner_id, contentType, bytes, extension: ext, access: 'face', faceId });
          const idle = await store('image/jpeg', files.idle, 'jpg');
          const mouths = await store('image/webp', files.mouths, 'webp');
          // Every file under a fresh unguessable id beside the others in /media/: the rig names its sheets
          // relative to itself, so a token in the rig's path (media/access.ts) reaches them too.
          const rig = {
            ...files.rig,
            idle: { ...files.rig.idle, url: idle.mediaId },
            mouths: { ...files.rig.mouths, sheet: { ...files.rig.mouths.sheet, url: mouths.mediaId } },
          };
          const json = new TextEncoder().encode(JSON.stringify(rig));
          const stored = await store('application/json', json, 'json');
          const summary: RigSummary = {
            url: stored.url,
            media_ids: [idle.mediaId, mouths.mediaId, stored.mediaId],
            bytes: files.idle.length + files.mouths.length + json.length,
            idle_frames: files.rig.idle.count,
            footage: files.footage,
            warped: files.warped,
          };
          // The per-frame analysis has served its purpose; the rig's summary replaces it.
          details = { ...details, analysis: undefined, rig: summary };
          return { training_details: JSON.stringify(details) };
        });
      }
      await finish(faceId, { status: 'completed' });
    } catch (error) {
      if (error instanceof FaceGone) return;
      if (signal.aborted) throw error; // shutting down: the job stays claimed until its lease expires, then resumes
      if (error instanceof RetryLater) throw error; // the trainer is busy: again later, the attempt not counted
      if (error instanceof TrainingFailure) return finish(faceId, { status: 'error', message: error.message });
      if (attempt >= maxAttempts)
        return finish(faceId, { status: 'error', message: `training failed: ${error instanceof Error ? error.message : String(error)}` });
      throw error;
    }
  };
}
