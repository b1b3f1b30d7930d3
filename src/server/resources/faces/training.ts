// The local face trainer, a resumable background job. It prepares what the service needs to show a
// face (no neural model is trained on this machine): 1 download and check the video and keep it as
// the thumbnail video, 2 probe it, 3 extract a thumbnail frame, 4 finish. Each step commits its result
// and `training_progress` together, so a run interrupted at any point resumes after the last committed
// step; the final status and the training callbacks are committed in one transaction, so a re-run
// after a crash never sends them twice.
import type { ServiceDeps } from '../../app/context.js';
import type { Db } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { OutboundBlockedError, OutboundTooLargeError } from '../../platform/net/guarded-fetch.js';
import { storeMedia } from '../media/store.js';
import { locateFfmpeg } from '../../platform/media/ffmpeg.js';
import { extractFrame, probeVideo, ToolMissing, VideoUnreadable, withVideoFile } from './media-tools.js';
import { sniffVideoContainer, type VideoContainer } from './video-check.js';
import { scrubText } from '../../app/log.js';

export const FACE_TRAINING_JOB = 'face.train';
export const TRAINING_STEPS = 4;
export const FACE_VIDEO_MAX_BYTES = 100 * 1024 * 1024;
/** Smaller than any real video: a header alone, an error page or a truncated upload. */
export const FACE_VIDEO_MIN_BYTES = 1024;
export const FACE_MODEL_NAME = 'palkit-local-1';
export const FACE_TRAINING_ATTEMPTS = 4;

/** A failure that retrying cannot fix: training ends with `error` and this message. */
class TrainingFailure extends Error {}
/** The face was deleted or finished meanwhile: stop quietly. */
class FaceGone extends Error {}

type Details = { container?: VideoContainer; bytes?: number; video_media_id?: string; probe?: unknown; probe_skipped?: string; thumbnail_skipped?: string };

const progressDone = (progress: string) => Number(progress.split('/')[0]) || 0;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('stopping'))), { once: true });
  });
}

export function faceTrainingJob(deps: ServiceDeps): JobHandler<{ face_id: string }> {
  const { db, config } = deps;

  /** Commits one step: its side effects (via `work`) and the new progress, only while still training. */
  async function commitStep(faceId: string, done: number, work: (trx: Db) => Promise<Record<string, unknown>>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const face = await trx.selectFrom('faces').select(['status']).where('face_id', '=', faceId).forUpdate().executeTakeFirst();
      if (!face || face.status !== 'training') throw new FaceGone();
      const set = await work(trx);
      await trx.updateTable('faces').set({ ...set, training_progress: `${done}/${TRAINING_STEPS}`, updated_at: new Date() }).where('face_id', '=', faceId).execute();
    });
  }

  async function download(url: string, signal: AbortSignal): Promise<{ bytes: Uint8Array; container: VideoContainer }> {
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
      if (error instanceof OutboundTooLargeError || (error as { cause?: unknown }).cause instanceof OutboundTooLargeError) throw new TrainingFailure('the training video is larger than 100 MB');
      throw error;
    }
    if (bytes.length === 0) throw new TrainingFailure('the training video is empty');
    if (bytes.length < FACE_VIDEO_MIN_BYTES) throw new TrainingFailure(`the training video is too small (${bytes.length} bytes) to be a video`);
    const container = sniffVideoContainer(bytes);
    if (!container) throw new TrainingFailure('train_video_url is not a video: expected an MP4, MOV, WebM or Matroska file');
    return { bytes, container };
  }

  async function videoBytes(details: Details): Promise<Uint8Array> {
    const row = await db.selectFrom('media').select('bytes').where('media_id', '=', details.video_media_id ?? '').executeTakeFirst();
    if (!row) throw new TrainingFailure('the stored training video is missing');
    return new Uint8Array(row.bytes);
  }

  /** Ends training: status, progress, and the two callbacks (legacy replica_id body first), atomically. */
  async function finish(faceId: string, outcome: { status: 'completed' } | { status: 'error'; message: string }): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const face = await trx.selectFrom('faces').selectAll().where('face_id', '=', faceId).forUpdate().executeTakeFirst();
      if (!face || face.status !== 'training') return;
      const now = new Date();
      const errorMessage = outcome.status === 'error' ? scrubText(outcome.message) : null;
      if (face.callback_url) {
        const status = outcome.status === 'completed' ? 'ready' : 'error';
        const extra = errorMessage === null ? {} : { error_message: errorMessage };
        await deps.webhooks.send({
          ownerId: face.owner_id,
          url: face.callback_url,
          bodies: [{ replica_id: faceId, status, ...extra }, { face_id: faceId, status, ...extra }],
          eventType: `face.${status}`,
          db: trx,
        });
      }
      if (outcome.status === 'error') {
        // A failed face keeps no media: nothing will show it.
        for (const url of [face.thumbnail_video_url, face.thumbnail_image_url]) {
          const id = url?.match(/\/media\/([A-Za-z0-9.]+)$/)?.[1];
          if (id) await trx.deleteFrom('media').where('media_id', '=', id).execute();
        }
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
    });
  }

  return async ({ payload, attempt, maxAttempts, signal }) => {
    const faceId = payload.face_id;
    const load = () => db.selectFrom('faces').selectAll().where('face_id', '=', faceId).executeTakeFirst();
    let face = await load();
    if (!face || face.status !== 'training') return; // deleted, or a re-run after the final commit
    try {
      let details: Details = { ...(face.training_details ?? {}) };
      if (progressDone(face.training_progress) < 1) {
        const { bytes, container } = await download(face.train_video_url ?? '', signal);
        await commitStep(faceId, 1, async (trx) => {
          const { mediaId, url } = await storeMedia(trx, config.publicUrl, { ownerId: face!.owner_id, contentType: container.contentType, bytes, extension: container.extension });
          details = { container, bytes: bytes.length, video_media_id: mediaId };
          return { thumbnail_video_url: url, training_details: JSON.stringify(details) };
        });
        await sleep(config.faceTrainingStepMs, signal);
        face = (await load()) ?? face;
      }
      if (progressDone(face.training_progress) < 2) {
        const bytes = await videoBytes(details);
        try {
          details = { ...details, probe: await withVideoFile(bytes, details.container?.extension ?? 'mp4', (path) => probeVideo(locateFfmpeg(config.ffmpeg), path)) };
        } catch (error) {
          if (error instanceof VideoUnreadable) throw new TrainingFailure(`the training video is not usable: ${error.message}`);
          if (!(error instanceof ToolMissing)) throw error;
          details = { ...details, probe_skipped: error.message };
        }
        await commitStep(faceId, 2, async () => ({ training_details: JSON.stringify(details) }));
        await sleep(config.faceTrainingStepMs, signal);
        face = (await load()) ?? face;
      }
      if (progressDone(face.training_progress) < 3) {
        const bytes = await videoBytes(details);
        const duration = (details.probe as { duration_seconds?: number | null } | undefined)?.duration_seconds ?? 0;
        let frame: Uint8Array | null = null;
        try {
          // A frame a little into the video: the very first one is often black or mid-blink.
          frame = await withVideoFile(bytes, details.container?.extension ?? 'mp4', (path) => extractFrame(locateFfmpeg(config.ffmpeg), path, Math.min(0.5, duration / 4)));
        } catch (error) {
          if (error instanceof VideoUnreadable) throw new TrainingFailure(`the training video is not usable: ${error.message}`);
          if (!(error instanceof ToolMissing)) throw error;
          // Without ffmpeg there is no still image: thumbnail_image_url stays null and players use the video.
          details = { ...details, thumbnail_skipped: error.message };
        }
        await commitStep(faceId, 3, async (trx) => {
          if (!frame) return { training_details: JSON.stringify(details) };
          const { url } = await storeMedia(trx, config.publicUrl, { ownerId: face!.owner_id, contentType: 'image/jpeg', bytes: frame, extension: 'jpg' });
          return { thumbnail_image_url: url, training_details: JSON.stringify(details) };
        });
        await sleep(config.faceTrainingStepMs, signal);
      }
      await finish(faceId, { status: 'completed' });
    } catch (error) {
      if (error instanceof FaceGone) return;
      if (signal.aborted) throw error; // shutting down: the job stays claimed until its lease expires, then resumes
      if (error instanceof TrainingFailure) return finish(faceId, { status: 'error', message: error.message });
      if (attempt >= maxAttempts) return finish(faceId, { status: 'error', message: `training failed: ${error instanceof Error ? error.message : String(error)}` });
      throw error;
    }
  };
}
