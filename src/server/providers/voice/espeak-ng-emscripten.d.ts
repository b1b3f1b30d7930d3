// @echogarden/espeak-ng-emscripten ships no types: its default export loads eSpeak NG compiled with
// Emscripten (its data file, every language's voice, read from beside the module). Only what
// espeak/wasm-worker.ts uses is declared.
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakEvent {
    type: 'list_terminated' | 'word' | 'sentence' | 'mark' | 'play' | 'end' | 'msg_terminated' | 'phoneme' | 'samplerate';
    /** Characters from 1 into the text given to synthesize. */
    text_position: number;
    word_length: number;
    /** Milliseconds into the text's audio. */
    audio_position: number;
    /** A phoneme event's IPA symbol, a word's number. */
    id: string | number | undefined;
  }
  export interface EspeakEngine {
    readonly samplerate: number;
    /** Words per minute for the next synthesize. */
    rate: number;
    /** 0 when the voice exists. */
    set_voice(name: string): number;
    /**
     * Synthesises UTF-8 text read as SSML with [[phoneme]] input; the callback gets each chunk of samples
     * with its events and stops the synthesis by returning true.
     */
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean): void;
  }
  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakEngine;
  }
  /** Emscripten's module settings: `print` and `printErr` take what the C code writes to stdout and stderr. */
  const load: (settings?: { print?: (text: string) => void; printErr?: (text: string) => void }) => Promise<EspeakModule>;
  export default load;
}
