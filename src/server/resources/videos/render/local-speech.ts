// Speech items' audio from the local voice (eSpeak NG in WebAssembly, providers/voice/espeak.ts): the whole
// script as one WAV file, nothing outside npm. The script is said a bounded chunk at a time in a
// background lane of the rooms' own pool (providers/voice/local-voice-pool.ts): each chunk waits while a
// room has a sentence waiting and never takes the last free speaker, so a long script never holds up a call.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../../platform/config.js';
import { createLogger } from '../../../platform/log.js';
import { localVoicePool } from '../../../providers/voice/local-voice-pool.js';
import { SynthesisError } from '../../../providers/voice/synthesizer.js';
import { chunksOf } from '../../../providers/voice/speech-pieces.js';
import { encodeWavRuns } from '../../../platform/audio/wav.js';
import { RenderError } from './contract.js';
import type { Viseme } from '../../../../protocol/visemes.js';

/** The script in eSpeak's voice `voice` (en-us, de, en+f3…) as 16-bit mono WAV. */
export async function localSpeechWav(config: Config, text: string, voice: string, signal?: AbortSignal): Promise<Uint8Array> {
  const runs: Int16Array[] = [];
  const pool = localVoicePool(config, createLogger(config.log));
  const lane = `speech-${randomUUID()}`;
  const cancel = signal ?? new AbortController().signal;
  let sampleRate = 22_050;
  try {
    for (const chunk of chunksOf(text)) {
      const stream = await pool.synthesizeAs(lane, chunk, voice, cancel);
      for await (const event of stream.events) if (event.type === 'audio') runs.push(event.samples);
      sampleRate = stream.sampleRate;
      if (signal?.aborted) throw signal.reason;
    }
    if (!runs.some((run) => run.length)) throw new RenderError('the local voice produced no audio for this script');
    return encodeWavRuns(runs, sampleRate); // one copy of each run, no joined copy first
  } catch (error) {
    if (error instanceof SynthesisError && error.code === 'unsupported_language')
      throw new RenderError(`voice "${voice}" is not a voice of the local synthesiser (eSpeak NG)`);
    throw error;
  }
}

/**
 * When the local voice's mouth shapes fall in the script read aloud (ms from the start), and how long it
 * speaks: a trained face's lips follow them in a generated video.
 */
export async function localSpeechVisemes(
  config: Config,
  text: string,
  voice: string,
  signal?: AbortSignal,
): Promise<{ cues: Array<{ atMs: number; viseme: Viseme }>; durationMs: number }> {
  const cues: Array<{ atMs: number; viseme: Viseme }> = [];
  const pool = localVoicePool(config, createLogger(config.log));
  const lane = `visemes-${randomUUID()}`;
  const cancel = signal ?? new AbortController().signal;
  let durationMs = 0;
  // Said in the same chunks as the audio, so each chunk's cues are offset by the chunks before it.
  for (const chunk of chunksOf(text)) {
    const stream = await pool.synthesizeAs(lane, chunk, voice, cancel);
    let samples = 0;
    for await (const event of stream.events) {
      if (event.type === 'audio') samples += event.samples.length;
      else if (event.type === 'viseme') cues.push({ atMs: durationMs + event.atMs, viseme: event.viseme });
    }
    durationMs += (samples / stream.sampleRate) * 1000;
    if (signal?.aborted) throw signal.reason;
  }
  return { cues: cues.sort((a, b) => a.atMs - b.atMs), durationMs };
}
