// What the voice listener page script (fake-microphone.ts's `voiceListener`) recorded, read through any
// engine's page, and the greeting check the voice walks share: a live track, audible before the utterance
// completes, captioned ahead of it.
import assert from 'node:assert/strict';
import { eventually } from './e2e-world.js';

/** A page that runs a function in the browser and returns its result. */
export type Evaluate = <T>(fn: () => T) => Promise<T>;

export interface VoiceReadings {
  messages(): Promise<Array<{ at: number; m: any }>>;
  levels(): Promise<Array<{ at: number; rms: number }>>;
  /** When the PAL's complete utterance `text` arrived (page clock). */
  utteranceAt(text: string): Promise<number>;
}

export function voiceReadings(evaluate: Evaluate): VoiceReadings {
  const messages = () => evaluate(() => (window as any).__voice.messages as Array<{ at: number; m: any }>);
  const isUtterance = (text: string) => (x: { m: any }) =>
    x.m.event_type === 'conversation.utterance' && x.m.properties.role === 'replica' && x.m.properties.speech === text;
  return {
    messages,
    levels: () => evaluate(() => (window as any).__level.samples as Array<{ at: number; rms: number }>),
    utteranceAt: async (text) =>
      (await eventually(messages, (all) => all.some(isUtterance(text)), `the utterance "${text}"`, 30_000)).find(isUtterance(text))!.at,
  };
}

/** The greeting plays as a live track, is audible (above `loud`) for half a second before it completes, and is captioned ahead; returns when it completed and when its first partial caption showed. */
export async function assertGreetingHeard(
  evaluate: Evaluate,
  readings: VoiceReadings,
  greeting: string,
  loud: number,
): Promise<{ complete: number; captionedAt: number }> {
  const track = await evaluate(() => {
    const audio = (window as any).__inside('pal-stage', 'audio') as HTMLAudioElement;
    const t = (audio.srcObject as MediaStream).getAudioTracks()[0];
    return t && { kind: t.kind, readyState: t.readyState, paused: audio.paused };
  });
  assert.deepEqual(track, { kind: 'audio', readyState: 'live', paused: false });
  const complete = await readings.utteranceAt(greeting);
  const audible = (await readings.levels()).filter((s) => s.at < complete && s.rms > loud);
  assert.ok(
    audible.length >= 25,
    `the greeting is audible for at least half a second before it completes (${audible.length} loud samples of 20 ms)`,
  );
  const captions = await evaluate(() => (window as any).__voice.captions as Array<{ at: number; text: string }>);
  const partial = captions.find(
    (c) => c.at < complete && c.text.length > 0 && c.text.length < greeting.length && greeting.startsWith(c.text),
  );
  assert.ok(partial, 'a part of the greeting was captioned before the complete utterance arrived');
  return { complete, captionedAt: partial.at };
}
