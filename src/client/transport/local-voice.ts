// Gives the PAL a voice in the local room, where no audio track exists: complete replica utterances are
// read with the browser's speech synthesis. Audio was unlocked by the visitor's gesture (see media.ts).
import { parseInteraction } from '../../protocol/interactions.js';

export class LocalVoice {
  muted = false;
  readonly #synth: SpeechSynthesis | null = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;

  handle(raw: unknown): void {
    const message = parseInteraction(raw);
    if (!message || !this.#synth) return;
    if (message.event_type === 'conversation.replica_interrupted') this.#synth.cancel();
    if (message.event_type !== 'conversation.utterance' || this.muted) return;
    const { role, speech } = message.properties;
    if (role !== 'replica' || typeof speech !== 'string' || !speech.trim()) return;
    this.#synth.speak(new SpeechSynthesisUtterance(speech));
  }

  stop(): void {
    this.#synth?.cancel();
  }
}
