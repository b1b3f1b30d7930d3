// The background job that turns a video row into files: speech → background → render → publish.
// Each finished step is committed with its artifact (stored media) and the new generation_progress,
// so a rerun after a crash or an expired lease skips what is done; the final transition happens once
// (guarded by status = 'generating') together with its callback, so a rerun never sends a second one.
import type { ServiceDeps } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { withLimits, type JobHandler } from '../../platform/jobs/queue.js';
import { loadMedia, visualKind } from './media-source.js';
import { RenderError, rendererFor, type MediaInput, type RenderedSpeech } from './render/renderer.js';
import { wavDurationSeconds } from '../../platform/audio/wav.js';
import { progress, videoCallbackBody, VIDEO_STEPS, type VideoRow } from './repository.js';
import { locateFfmpeg } from '../../platform/media/ffmpeg.js';
import { FaceRig } from '../../../protocol/faces/rig.js';
import type { RigSummary } from '../faces/rig/train.js';
import { localSpeechVisemes, localSpeechWav } from './render/local-speech.js';
import { renderFaceVideoInProcess, type DrawnFace } from './render/rig-render-process.js';
import { ADA } from '../../../face-drawing/ada.js';
import { generationOf, VideoDeleted } from './running-renders.js';
import { endingFailure, errorDetails, finishGeneration, type GenerationOutcome } from './generation-end.js';

export const VIDEO_JOB = 'video.generate';
/** status_details of a video waiting for its turn to render (its status stays `generating`, the interface's). */
export const QUEUED = 'Queued';
/** Voice of generated videos (faces carry no voice of their own yet). */
const VIDEO_VOICE = 'en-us';

/** The row was deleted (or already finished) while a step ran: stop quietly, roll the step back. */
class VideoGone extends Error {}

type Changes = Partial<
  Pick<VideoRow, 'speech_media_url' | 'background_media_url' | 'background_kind' | 'video_media_url' | 'still_media_url' | 'gif_media_url'>
>;

/** A video's job: `owner_id` is its lane (one of an owner's videos renders at a time; absent on older jobs). */
export interface VideoJob {
  video_id: string;
  owner_id?: number;
}

/**
 * How much earlier than the voice's phoneme marks a drawn face's mouth takes each shape: the marks come
 * ~80 ms after the sound's own onsets (measured against the WAV's loudness), and at the file the mouth
 * followed the sound by 40–50 ms without it (FaceMesh on the MP4's frames, test/helpers/video-lip-sync.ts).
 */
const MOUTH_LEAD_MS = 40;

/** How often a generation looks whether its video still exists (deleted through another instance). */
const GONE_POLL_MS = 1000;

export function videoGenerationJob(deps: ServiceDeps): JobHandler<VideoJob> {
  const { db, config, clock } = deps;

  async function load(videoId: string) {
    return db.selectFrom('videos').selectAll().where('video_id', '=', videoId).executeTakeFirst();
  }

  /** Commits one step: its media, the row changes and the progress, only while still generating. */
  async function commitStep(row: VideoRow, done: number, details: string, work: (trx: Db) => Promise<Changes>): Promise<VideoRow> {
    return db.transaction().execute(async (trx) => {
      const changes = await work(trx);
      const updated = await trx
        .updateTable('videos')
        .set({ ...changes, generation_progress: progress(done), status_details: details, updated_at: clock.now() })
        .where('video_id', '=', row.video_id)
        .where('status', '=', 'generating')
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new VideoGone();
      return updated;
    });
  }

  const finish = (row: VideoRow, outcome: GenerationOutcome) =>
    finishGeneration(
      deps,
      'video',
      (trx) =>
        trx
          .updateTable('videos')
          .set(
            outcome.status === 'ready'
              ? { status: 'ready', generation_progress: progress(VIDEO_STEPS), status_details: 'Video is ready', updated_at: clock.now() }
              : {
                  status: 'error',
                  error_details: errorDetails(outcome.error),
                  status_details: 'Video generation failed',
                  updated_at: clock.now(),
                },
          )
          .where('video_id', '=', row.video_id)
          .where('status', '=', 'generating')
          .returningAll()
          .executeTakeFirst(),
      (updated) => videoCallbackBody(updated, config.publicUrl),
    );

  const store = (trx: Db, row: VideoRow, contentType: string, extension: string, bytes: Uint8Array) =>
    deps.media.store(trx, { ownerId: row.owner_id, contentType, extension, bytes }).then((m) => m.url);

  /** A drawn face speaks the script, frame by frame, lips on the voice's visemes, in the video renderer's process. */
  async function speakingFace(row: VideoRow, face: DrawnFace, speech: RenderedSpeech, signal: AbortSignal): Promise<MediaInput> {
    const ffmpeg = locateFfmpeg(config.ffmpeg);
    if ('missing' in ffmpeg) throw new RenderError(`ffmpeg is not installed: ${ffmpeg.missing}`);
    // The cues come from the local voice reading the script again; scaled to the speech as stored.
    const { cues, durationMs } = await localSpeechVisemes(config, row.script, VIDEO_VOICE, signal);
    const scale = durationMs > 0 && speech.durationSeconds > 0 ? (speech.durationSeconds * 1000) / durationMs : 1;
    const mp4 = await renderFaceVideoInProcess(
      {
        face,
        cues: cues.map((c) => ({ atMs: Math.max(0, c.atMs * scale - MOUTH_LEAD_MS), viseme: c.viseme })),
        durationSeconds: Math.max(0.2, speech.durationSeconds),
      },
      { clock, ffmpeg: ffmpeg.path, memoryMb: config.videos.renderMemoryMb, signal },
    );
    return { bytes: mp4, kind: 'video' };
  }

  /** A trained face's rig and sheets, from the media store. */
  async function rigFace(row: VideoRow, rig: RigSummary): Promise<DrawnFace> {
    const files = new Map<string, Uint8Array>();
    for (const id of rig.media_ids) {
      const media = await deps.media.get(db, id);
      if (media) files.set(id, await media.bytes());
    }
    const bytesOf = (id: string) => {
      const file = files.get(id);
      if (!file) throw new RenderError(`face ${row.face_id}'s rig is missing a file: train the face again`);
      return file;
    };
    const rigId = rig.url.slice(rig.url.lastIndexOf('/') + 1);
    const parsed = FaceRig.parse(JSON.parse(new TextDecoder().decode(bytesOf(rigId))));
    return { kind: 'rig', rig: parsed, idle: bytesOf(parsed.idle.url), mouths: bytesOf(parsed.mouths.sheet.url) };
  }

  /** Whether the video's face is drawn from geometry (Ada, or a trained face's rig) rather than shown as media. */
  async function drawnFace(row: VideoRow): Promise<boolean> {
    const face = await db
      .selectFrom('faces')
      .select(['training_details', 'model_name'])
      .where('face_id', '=', row.face_id)
      .executeTakeFirst();
    return face?.model_name === ADA || Boolean((face?.training_details as { rig?: RigSummary } | null)?.rig);
  }

  async function faceMedia(row: VideoRow, speech: RenderedSpeech, signal: AbortSignal): Promise<MediaInput> {
    const face = await db
      .selectFrom('faces')
      .select(['thumbnail_image_url', 'thumbnail_video_url', 'train_video_url', 'training_details', 'model_name'])
      .where('face_id', '=', row.face_id)
      .executeTakeFirst();
    if (!face) throw new RenderError(`face ${row.face_id} no longer exists`);
    // Faces drawn from geometry speak with their own lips: Ada (built in), and every trained face's rig.
    if (face.model_name === ADA) return speakingFace(row, { kind: 'ada' }, speech, signal);
    const rig = (face.training_details as { rig?: RigSummary } | null)?.rig;
    if (rig) return speakingFace(row, await rigFace(row, rig), speech, signal);
    const source = face.thumbnail_image_url ?? face.thumbnail_video_url ?? face.train_video_url;
    if (!source) throw new RenderError(`face ${row.face_id} has no image or video to render`);
    const loaded = await loadMedia(deps, source, 'face media');
    const kind = visualKind(loaded);
    if (!kind) throw new RenderError(`face media of ${row.face_id} is neither an image nor a video`);
    return { bytes: loaded.bytes, kind };
  }

  /** Runs one generation, aborted when the queue stops or the video is deleted (here, or found gone by the poll). */
  async function generate(context: Parameters<JobHandler<VideoJob>>[0]): Promise<void> {
    const generation = generationOf(context.payload.video_id);
    const gone = new AbortController();
    const poll = clock.setInterval(() => {
      void load(context.payload.video_id).then(
        (row) => row || gone.abort(new VideoDeleted()),
        () => undefined,
      );
    }, GONE_POLL_MS);
    try {
      await run(
        { ...context, signal: AbortSignal.any([context.signal, generation.signal, gone.signal]) },
        () => generation.signal.aborted || gone.signal.aborted,
      );
    } finally {
      clock.clearTimeout(poll);
      generation.done();
    }
  }

  async function run(
    { payload, attempt, maxAttempts, signal }: Parameters<JobHandler<VideoJob>>[0],
    deleted: () => boolean,
  ): Promise<void> {
    let row = await load(payload.video_id);
    if (!row || row.status !== 'generating') return;
    const renderer = rendererFor(config);
    try {
      if (row.status_details === QUEUED) row = await commitStep(row, 0, 'Synthesising speech', async () => ({}));
      if (!row.speech_media_url) {
        // A drawn face's lips follow the local voice's visemes, read again at render time from the same voice: so
        // its speech comes from that voice too. (From the espeak-ng program instead, its pauses and pace differed:
        // the mouth ran up to 250 ms ahead of the sound at the file, correlation 0.14–0.22.)
        const speech = (await drawnFace(row))
          ? { contentType: 'audio/wav', bytes: await localSpeechWav(config, row.script, VIDEO_VOICE, signal) }
          : await renderer.renderSpeech(row.script, VIDEO_VOICE, 'wav', { signal });
        row = await commitStep(row, 1, 'Preparing the background', async (trx) => ({
          speech_media_url: await store(trx, row!, speech.contentType, 'wav', speech.bytes),
        }));
      }
      const backgroundSource = row.background_url ?? row.background_source_url;
      if (backgroundSource && !row.background_media_url) {
        const loaded = await loadMedia(deps, backgroundSource, 'background');
        const kind = visualKind(loaded);
        if (!kind)
          throw new RenderError(
            `background ${backgroundSource} is not an image or a video (content type ${loaded.contentType || 'unknown'}); web pages are not rendered`,
          );
        row = await commitStep(row, 2, 'Rendering the video', async (trx) => ({
          background_media_url: await store(
            trx,
            row!,
            loaded.contentType || (kind === 'image' ? 'image/jpeg' : 'video/mp4'),
            kind === 'image' ? 'img' : 'video',
            loaded.bytes,
          ),
          background_kind: kind,
        }));
      } else if (row.generation_progress === progress(1)) {
        row = await commitStep(row, 2, 'Rendering the video', async () => ({}));
      }
      if (!row.video_media_url) {
        const wav = (await loadMedia(deps, row.speech_media_url!, 'speech')).bytes;
        const speech: RenderedSpeech = {
          bytes: wav,
          contentType: 'audio/wav',
          extension: 'wav',
          durationSeconds: wavDurationSeconds(wav) ?? 0,
        };
        const background: MediaInput | undefined = row.background_media_url
          ? { bytes: (await loadMedia(deps, row.background_media_url, 'background')).bytes, kind: row.background_kind ?? 'image' }
          : undefined;
        const video = await renderer.renderVideo(
          { face: await faceMedia(row, speech, signal), speech, ...(background ? { background } : {}) },
          { signal },
        );
        row = await commitStep(row, 3, 'Publishing the video', async (trx) => ({
          video_media_url: await store(trx, row!, 'video/mp4', 'mp4', video.mp4),
          still_media_url: await store(trx, row!, 'image/jpeg', 'jpg', video.still),
          gif_media_url: await store(trx, row!, 'image/gif', 'gif', video.gif),
        }));
      }
      await finish(row, { status: 'ready' });
    } catch (error) {
      if (error instanceof VideoGone || deleted()) return;
      // Permanent failures end now; passing trouble gets the queue's retries, and the last one ends it.
      const message = endingFailure(error, { attempt, maxAttempts, signal });
      deps.log.info('video generation failed', { video_id: row.video_id, error: message.slice(0, 200) });
      await finish(row, { status: 'error', error: message });
    }
  }

  // Renders are a core and a few hundred MB each: so many at once in this instance, one per owner at a time
  // (an owner's batch waits its turn, queued, and never holds every slot).
  return withLimits(generate, { maxRunning: config.videos.renders, laneField: 'owner_id', perLane: 1 });
}
