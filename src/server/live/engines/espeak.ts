// The local voice: eSpeak NG. A small bridge program (espeak/palkit-espeak.c, compiled once against
// libespeak-ng) runs beside the service and returns each text's samples with the synthesiser's own word
// and phoneme timing. Where it cannot be built (no C compiler or headers), the espeak-ng command line is
// used instead, with word and mouth timing estimated from the text.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../app/log.js';
import { packageRoot } from '../../app/package-root.js';
import { estimatedVisemes, estimatedWords, visemeOfPhoneme } from './visemes-of.js';
import { SynthesisError, type SynthesisEvent, type SynthesisStream, type Synthesizer, type VoiceChoice } from './synthesis.js';

// In a checkout it sits beside this file; the build copies it next to the compiled service (@palkit/server's dist/).
const SOURCES = ['live/engines/espeak/palkit-espeak.c', 'dist/palkit-espeak.c'].map((p) => join(packageRoot, p));
const FRAME = { audio: 1, word: 2, phoneme: 3, end: 4, error: 5, ready: 6 } as const;
const DEFAULT_RATE = 175;

/** Builds the bridge once per source version; null when this machine cannot. */
function bridgeBinary(log: Logger): string | null {
  const file = SOURCES.find((p) => existsSync(p));
  if (!file) {
    log.info('the local voice uses the espeak-ng command line (the bridge source is not installed)');
    return null;
  }
  const source = readFileSync(file);
  const binary = join(tmpdir(), `palkit-espeak-${createHash('sha256').update(source).digest('hex').slice(0, 12)}`);
  if (existsSync(binary)) return binary;
  mkdirSync(tmpdir(), { recursive: true });
  const partial = `${binary}.${process.pid}`;
  const built = spawnSync('cc', ['-O2', '-o', partial, file, '-lespeak-ng'], { encoding: 'utf8' });
  if (built.status !== 0) {
    log.info('the local voice uses the espeak-ng command line (its bridge could not be built: install a C compiler and libespeak-ng-dev for exact word timing)', {
      error: (built.stderr || built.error?.message || '').trim().split('\n')[0],
    });
    return null;
  }
  renameSync(partial, binary);
  return binary;
}

interface Pending {
  text: string;
  chars: string[];
  push(event: SynthesisEvent | null, error?: Error): void;
}

export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak-ng';
  private bridge: ChildProcessWithoutNullStreams | null = null;
  private binary: string | null | undefined;
  private sampleRate = 22050;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer: Buffer = Buffer.alloc(0);
  private crashes: number[] = [];

  constructor(private readonly log: Logger) {}

  async synthesize(text: string, voice: VoiceChoice, signal: AbortSignal): Promise<SynthesisStream> {
    const clean = text.replace(/[\t\r\n]+/g, ' ').trim();
    const name = espeakVoice(voice);
    const rate = Math.round(voice.rate ?? DEFAULT_RATE);
    const bridge = this.bridgeProcess();
    if (!bridge) return this.viaCommandLine(clean, name, rate, signal);
    const id = this.nextId++;
    const queue: Array<SynthesisEvent | null> = [];
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    this.pending.set(id, {
      text: clean,
      chars: [...clean],
      push: (event, error) => {
        if (error) failure = error;
        else queue.push(event);
        wake?.();
      },
    });
    const forget = () => {
      this.pending.delete(id);
      if (!this.pending.size) this.hold(false);
      wake?.();
    };
    signal.addEventListener('abort', forget, { once: true });
    bridge.stdin.write(`${id}\t${name}\t${rate}\t${clean}\n`);
    this.hold(true);
    async function* events(): AsyncGenerator<SynthesisEvent> {
      try {
        for (;;) {
          const event = queue.shift();
          if (event) yield event;
          else if (event === null) return;
          else if (failure) throw failure;
          else if (signal.aborted) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        forget();
        signal.removeEventListener('abort', forget);
      }
    }
    return { sampleRate: this.sampleRate, events: events() };
  }

  close(): void {
    this.bridge?.kill();
    this.bridge = null;
  }

  private bridgeProcess(): ChildProcessWithoutNullStreams | null {
    if (this.bridge) return this.bridge;
    this.binary ??= bridgeBinary(this.log);
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < 60_000);
    if (!this.binary || this.crashes.length >= 3) return null;
    const bridge = spawn(this.binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    bridge.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    bridge.stderr.on('data', (chunk: Buffer) => this.log.error('espeak bridge', { message: chunk.toString().trim() }));
    bridge.on('error', () => undefined);
    bridge.on('exit', (code) => {
      if (this.bridge !== bridge) return;
      this.bridge = null;
      this.buffer = Buffer.alloc(0);
      if (code !== 0 && code !== null) this.crashes.push(Date.now());
      for (const request of this.pending.values()) request.push(null, new SynthesisError('unavailable', 'the local voice stopped'));
      this.pending.clear();
    });
    this.bridge = bridge;
    this.hold(false);
    return bridge;
  }

  /** The bridge keeps the process alive only while it has work (an idle service may exit). */
  private hold(busy: boolean): void {
    const bridge = this.bridge;
    if (!bridge) return;
    for (const handle of [bridge, bridge.stdout, bridge.stderr, bridge.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void }>) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at = 0;
    while (this.buffer.length - at >= 9) {
      const type = this.buffer[at]!;
      const id = this.buffer.readUInt32LE(at + 1);
      const length = this.buffer.readUInt32LE(at + 5);
      if (this.buffer.length - at - 9 < length) break;
      const payload = this.buffer.subarray(at + 9, at + 9 + length);
      at += 9 + length;
      if (type === FRAME.ready) this.sampleRate = payload.readUInt32LE(0);
      const request = this.pending.get(id);
      if (!request) continue;
      if (type === FRAME.audio) {
        const samples = new Int16Array(payload.length / 2);
        for (let i = 0; i < samples.length; i++) samples[i] = payload.readInt16LE(i * 2);
        request.push({ type: 'audio', samples });
      } else if (type === FRAME.word) {
        const atMs = payload.readUInt32LE(0);
        const position = payload.readUInt32LE(4) - 1;
        const text = request.chars.slice(position, position + payload.readUInt32LE(8)).join('');
        if (text.trim()) request.push({ type: 'word', atMs, text });
      } else if (type === FRAME.phoneme) {
        const mnemonic = payload.subarray(4, 12).toString('utf8').replace(/\0.*$/s, '');
        request.push({ type: 'viseme', atMs: payload.readUInt32LE(0), viseme: visemeOfPhoneme(mnemonic) });
      } else if (type === FRAME.end) {
        request.push(null);
      } else if (type === FRAME.error) {
        const message = payload.toString('utf8');
        request.push(null, new SynthesisError(message === 'unknown voice' ? 'unsupported_language' : 'unavailable', `espeak-ng: ${message}`));
      }
    }
    this.buffer = this.buffer.subarray(at);
  }

  /** Without the bridge: the whole text at once from the command line, timing estimated. */
  private async viaCommandLine(text: string, voice: string, rate: number, signal: AbortSignal): Promise<SynthesisStream> {
    const wav = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn('espeak-ng', ['--stdout', '-v', voice, '-s', String(rate), '--', text], { signal });
      const parts: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => parts.push(d));
      child.on('error', (error) => reject(new SynthesisError('unavailable', `espeak-ng could not run: ${error.message}`)));
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(parts)) : reject(new SynthesisError('unavailable', `espeak-ng exited with ${code}`))));
    });
    const rateHz = wav.length >= 28 ? wav.readUInt32LE(24) : 22050;
    const data = wav.subarray(44);
    const samples = new Int16Array(Math.floor(data.length / 2));
    for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
    const durationMs = (samples.length / rateHz) * 1000;
    async function* events(): AsyncGenerator<SynthesisEvent> {
      for (const word of estimatedWords(text, durationMs)) yield { type: 'word', ...word };
      for (const mark of estimatedVisemes(text, durationMs)) yield { type: 'viseme', ...mark };
      yield { type: 'audio', samples };
    }
    return { sampleRate: rateHz, events: events() };
  }
}

// Where eSpeak's voice name is not the language's primary tag: Norwegian is Bokmål, Chinese is Mandarin.
const ESPEAK_NAMES: Record<string, string> = { en: 'en-us', no: 'nb', zh: 'cmn' };

/** eSpeak's voice for a language: its names are mostly the language codes (en, de, fr, es, it, pt, nl, ja…). */
function espeakVoice(voice: VoiceChoice): string {
  const language = voice.language.toLowerCase().split(/[-_]/)[0] ?? 'en';
  if (!/^[a-z]{2,3}$/.test(language)) return 'en-us';
  return ESPEAK_NAMES[language] ?? language;
}
