// The background job that synthesises a speech item: render and store the audio (step 1, committed
// with the row so a rerun does not render again), then publish it and send the callback once
// (videos/generation-end.ts, as a video's job ends).
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { rendererFor } from '../videos/render/renderer.js';
import { endingFailure, errorDetails, finishGeneration, type GenerationOutcome } from '../videos/generation-end.js';
import { speechProgress, speechView, SPEECH_STEPS, type SpeechRow } from './repository.js';

export const SPEECH_JOB = 'speech.generate';

class SpeechGone extends Error {}

export function speechGenerationJob(deps: ServiceDeps): JobHandler<{ speech_id: string }> {
  const { db, config, clock } = deps;

  const finish = (row: SpeechRow, outcome: GenerationOutcome) =>
    finishGeneration(
      deps,
      'speech',
      (trx) =>
        trx
          .updateTable('speech')
          .set(
            outcome.status === 'ready'
              ? { status: 'ready', generation_progress: speechProgress(SPEECH_STEPS), updated_at: clock.now() }
              : { status: 'error', error_details: errorDetails(outcome.error), updated_at: clock.now() },
          )
          .where('speech_id', '=', row.speech_id)
          .where('status', '=', 'generating')
          .returningAll()
          .executeTakeFirst(),
      speechView,
    );

  return async ({ payload, attempt, maxAttempts, signal }) => {
    let row = await db.selectFrom('speech').selectAll().where('speech_id', '=', payload.speech_id).executeTakeFirst();
    if (!row || row.status !== 'generating') return;
    try {
      if (!row.audio_url) {
        const audio = await rendererFor(config).renderSpeech(row.script, row.voice, row.audio_format ?? undefined, { signal });
        const current = row;
        row = await db.transaction().execute(async (trx) => {
          const media = await deps.media.store(trx, {
            ownerId: current.owner_id,
            contentType: audio.contentType,
            extension: audio.extension,
            bytes: audio.bytes,
          });
          const updated = await trx
            .updateTable('speech')
            .set({ audio_url: media.url, duration: audio.durationSeconds, generation_progress: speechProgress(1), updated_at: clock.now() })
            .where('speech_id', '=', current.speech_id)
            .where('status', '=', 'generating')
            .returningAll()
            .executeTakeFirst();
          if (!updated) throw new SpeechGone();
          return updated;
        });
      }
      await finish(row, { status: 'ready' });
    } catch (error) {
      if (error instanceof SpeechGone) return;
      const message = endingFailure(error, { attempt, maxAttempts, signal });
      deps.log.info('speech generation failed', { speech_id: row.speech_id, error: message.slice(0, 200) });
      await finish(row, { status: 'error', error: message });
    }
  };
}
