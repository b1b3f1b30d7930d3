// The background job that synthesises a speech item: render and store the audio (step 1, committed
// with the row so a rerun does not render again), then publish it and send the callback once.
import type { ServiceDeps } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs/queue.js';
import { RenderError, rendererFor } from '../videos/render/renderer.js';
import { speechProgress, speechView, SPEECH_STEPS, type SpeechRow } from './repository.js';
import { scrubText } from '../../platform/log.js';

export const SPEECH_JOB = 'speech.generate';

class SpeechGone extends Error {}

export function speechGenerationJob(deps: ServiceDeps): JobHandler<{ speech_id: string }> {
  const { db, config, clock } = deps;

  async function finish(row: SpeechRow, outcome: { status: 'ready' } | { status: 'error'; error: string }): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('speech')
        .set(
          outcome.status === 'ready'
            ? { status: 'ready', generation_progress: speechProgress(SPEECH_STEPS), updated_at: clock.now() }
            : { status: 'error', error_details: scrubText(outcome.error).slice(0, 1000), updated_at: clock.now() },
        )
        .where('speech_id', '=', row.speech_id)
        .where('status', '=', 'generating')
        .returningAll()
        .executeTakeFirst();
      if (updated?.callback_url) {
        await deps.webhooks.send({
          ownerId: updated.owner_id,
          url: updated.callback_url,
          bodies: [speechView(updated)],
          eventType: `speech.${updated.status}`,
          db: trx,
        });
      }
    });
  }

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
      if (signal.aborted) throw error;
      if (!(error instanceof RenderError) && attempt < maxAttempts) throw error;
      const message = error instanceof Error ? error.message : String(error);
      deps.log.info('speech generation failed', { speech_id: row.speech_id, error: message.slice(0, 200) });
      await finish(row, { status: 'error', error: message });
    }
  };
}
