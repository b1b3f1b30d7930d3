// Gives the PAL a voice in the local room, where no audio track exists: complete replica utterances are
// read with the browser's speech synthesis. Audio was unlocked by the visitor's gesture (see media.ts).
// It tells when it is audible, so the visitor's speech recognition can pause rather than hear the PAL.
import { parseInteraction } from '../../protocol/interactions.js';

/** A voice that never reports its end (no voices installed) is taken as done after this much per word (speech takes about 400 ms). */
const FALLBACK_MS_PER_WORD = 1000;
const FALLBACK_MIN_MS = 3000;

export class LocalVoice {
  muted = false;
  /** Called with true when the voice starts being audible and false when it falls silent. */
  onSpeaking: (speaking: boolean) => void = () => undefined;
  readonly #synth: SpeechSynthesis | null = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;
  readonly #playing = new Map<SpeechSynthesisUtterance, ReturnType<typeof setTimeout>>();

  handle(raw: unknown): void {
    const message = parseInteraction(raw);
    if (!message || !this.#synth) return;
    if (message.event_type === 'conversation.replica_interrupted') this.stop();
    if (message.event_type !== 'conversation.utterance' || this.muted) return;
    const { role, speech } = message.properties;
    if (role !== 'replica' || typeof speech !== 'string' || !speech.trim()) return;
    this.#speak(speech);
  }

  stop(): void {
    this.#synth?.cancel();
    for (const utterance of [...this.#playing.keys()]) this.#done(utterance);
  }

  #speak(text: string): void {
    const utterance = new SpeechSynthesisUtterance(text);
    const words = text.split(/\s+/).length;
    this.#playing.set(utterance, setTimeout(() => this.#done(utterance), Math.max(FALLBACK_MIN_MS, words * FALLBACK_MS_PER_WORD)));
    utterance.addEventListener('end', () => this.#done(utterance));
    utterance.addEventListener('error', () => this.#done(utterance));
    if (this.#playing.size === 1) this.onSpeaking(true);
    this.#synth!.speak(utterance);
  }

  #done(utterance: SpeechSynthesisUtterance): void {
    const timer = this.#playing.get(utterance);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#playing.delete(utterance);
    if (this.#playing.size === 0) this.onSpeaking(false);
  }
}
