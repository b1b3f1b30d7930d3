// The espeak-ng command line, for the native engine when no bridge can be built or bridges keep dying:
// the whole text at once, word and mouth timing estimated from its letters.
import { spawn } from 'node:child_process';
import { estimatedVisemes, estimatedWords } from '../visemes-of.js';
import { SynthesisError, type SynthesisEvent } from '../synthesizer.js';
import { int16 } from './native-speaker.js';

export async function viaCommandLine(
  request: { voice: string; rate: number; text: string; signal: AbortSignal },
  sampleRate: number,
  push: (event: SynthesisEvent) => void,
): Promise<void> {
  const wav = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn('espeak-ng', ['--stdout', '-v', request.voice, '-s', String(request.rate), '--', request.text], {
      signal: request.signal,
    });
    const parts: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => parts.push(d));
    child.stdin.on('error', () => undefined);
    child.stdout.on('error', () => undefined);
    child.on('error', (error) => reject(new SynthesisError('unavailable', `espeak-ng could not run: ${error.message}`)));
    child.on('close', (code, signal) =>
      code === 0 ? resolve(Buffer.concat(parts)) : reject(new SynthesisError('unavailable', `espeak-ng ended with ${signal ?? code}`)),
    );
  });
  const rateHz = wav.length >= 28 ? wav.readUInt32LE(24) : 22050;
  const samples = int16(wav.subarray(44));
  const durationMs = (samples.length / rateHz) * 1000;
  // The stream reports the bridge's rate; the command line's voices use the same one.
  if (rateHz !== sampleRate) throw new SynthesisError('unavailable', `espeak-ng spoke at ${rateHz} Hz`);
  for (const word of estimatedWords(request.text, durationMs)) push({ type: 'word', ...word });
  for (const mark of estimatedVisemes(request.text, durationMs)) push({ type: 'viseme', ...mark });
  push({ type: 'audio', samples });
}
