// The PAL's mouth: its voice (the room's own lane of the synthesiser) and the speaker that says one
// utterance at a time with it, in the voice the PAL asks for, writing what was heard to the transcript.
import type { ServiceDeps } from '../../platform/context.js';
import { PalVoice, type AudioOut } from '../../providers/voice/pal-voice.js';
import { synthesizerFor } from '../../providers/voice/synthesis.js';
import { isRecord, type LiveConversation } from '../../resources/conversations/live-conversation.js';
import { voiceTag } from '../../resources/pals/lines/language.js';
import { msPerWord, Speaker, type ReplyStage } from '../speech/utterances.js';
import { palTurn } from './history.js';
import type { ChatMessage } from './llm.js';
import type { TranscriptWriter } from './transcript-writer.js';

/** What the mouth tells the PAL, and where it writes what was said. */
export interface MouthHooks {
  emit(eventType: string, properties: Record<string, unknown>, inferenceId: string, turnIdx: number): void;
  mark(stage: ReplyStage, inferenceId: string): void;
  readonly transcript: TranscriptWriter;
  /** The conversation as the model sees it: each utterance said joins it. */
  readonly history: ChatMessage[];
  /** The language the PAL speaks when an utterance names none. */
  language(): string;
  voiceFailed(error: unknown): void;
}

export function palMouth(
  deps: ServiceDeps,
  conv: LiveConversation,
  audio: AudioOut,
  hooks: MouthHooks,
): { voice: PalVoice; speaker: Speaker } {
  const synthesizer = synthesizerFor(deps);
  // The room's own lane: its sentences are served in turn with other rooms', never ahead of them.
  const voice = new PalVoice(synthesizer.lane?.(conv.conversationId) ?? synthesizer, audio, msPerWord(deps.config.room.wordsPerMinute));
  const { transcript } = hooks;
  const speaker = new Speaker(
    {
      emit: (eventType, properties, ids) => hooks.emit(eventType, properties, ids.inferenceId, ids.turnIdx),
      mark: (stage, ids) => hooks.mark(stage, ids.inferenceId),
      // Stored as it is heard: a room that dies mid-sentence leaves it in the transcript, marked interrupted.
      heard: (speech, startedAt, ids) =>
        transcript.progress({
          role: 'assistant',
          content: speech,
          ...transcript.timing(startedAt, secondsSince(startedAt, deps.clock.now())),
          inference_id: ids.inferenceId,
        }),
    },
    voice,
    (language) => ({
      language: voiceTag(conv, language ?? hooks.language()),
      rate: deps.config.room.wordsPerMinute,
      ...providerVoice(conv),
    }),
    () => deps.clock.now(),
    async (utterance, result) => {
      if (!result.text) return;
      hooks.history.push(palTurn(result.text, result.interrupted));
      transcript.record({
        role: 'assistant',
        content: result.text,
        ...transcript.timing(result.startedAt, result.duration),
        inference_id: utterance.inferenceId,
        ...(result.interrupted ? { interrupted: true } : {}),
      });
    },
    (error) => hooks.voiceFailed(error),
  );
  return { voice, speaker };
}

function secondsSince(began: Date, now: Date): number {
  return Math.round(Math.max(0, now.getTime() - began.getTime())) / 1000;
}

/** The speech provider's voice the PAL asks for in `layers.tts` (`voice`, or the hosted product's `external_voice_id`). */
function providerVoice(conv: LiveConversation): { voice?: string } {
  const layers = conv.pal.definition.layers;
  const tts = isRecord(layers) && isRecord(layers.tts) ? layers.tts : {};
  const voice = typeof tts.voice === 'string' ? tts.voice : typeof tts.external_voice_id === 'string' ? tts.external_voice_id : undefined;
  return voice?.trim() ? { voice: voice.trim().slice(0, 64) } : {};
}
