import { z } from '@hono/zod-openapi';
import { anyOfRequired } from '../../platform/http/openapi.js';
import { HttpUrl, Script } from '../videos/schemas.js';

export const SpeechId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: 'speech_id', in: 'path' }, example: 's4q8w1e7r2t9y3u5i6o0' });

export const Speech = z
  .object({
    speech_id: z.string(),
    speech_name: z.string(),
    status: z.enum(['generating', 'ready', 'error']),
    script: z.string(),
    audio_url: z.string().nullable().openapi({ description: 'The audio file (audio/mpeg, audio/ogg or audio/wav); null until ready' }),
    duration: z.number().nullable().openapi({ description: 'Seconds; null until ready' }),
    generation_progress: z.string().openapi({ description: '`<done>/<total>` generation steps', example: '2/2' }),
    error_details: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Speech');

const Voice = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_+\-/]{0,39}$/, 'must be a voice name such as en-us, en-gb, es, fr or de')
  .transform((v) => v.toLowerCase());

export const CreateSpeech = z
  .object({
    script: Script.optional().openapi({ description: 'What to say, 1 to 5000 characters (required unless text is given)' }),
    text: Script.optional().openapi({ description: 'Alias of script' }),
    speech_name: z.string().trim().min(1).max(200).optional().openapi({ description: 'Defaults to the start of the script' }),
    voice: Voice.optional().openapi({
      description: 'Synthesiser voice; the local renderer takes espeak-ng voice names (en-us, en-gb, es, fr, de, en+f3 …). Default en-us',
    }),
    language: Voice.optional().openapi({ description: 'Language code used as the voice when voice is absent (en, es, fr, de …)' }),
    audio_format: z.enum(['mp3', 'ogg', 'wav']).optional().openapi({ description: 'Default mp3 (wav when the service cannot encode mp3)' }),
    callback_url: HttpUrl.optional().openapi({ description: 'Receives the speech object when it is `ready` or in `error`' }),
  })
  .refine((b) => b.script ?? b.text, { message: 'script (or text) is required', path: ['script'] })
  .refine((b) => !(b.script && b.text && b.script !== b.text), { message: 'script and text differ; give one', path: ['text'] })
  .openapi('CreateSpeech', anyOfRequired('script', 'text'));

export const RenameSpeech = z.object({ speech_name: z.string().trim().min(1).max(200) }).openapi('RenameSpeech');
export const SpeechPage = z.object({ data: z.array(Speech), total_count: z.number().int() }).openapi('SpeechPage');
