// The service's voice and ears, shared by its rooms: one speech synthesiser (the local engine keeps a
// helper process), and voice activity detection plus the configured transcriber for hearing.
import type { ServiceDeps } from '../../../context.js';
import { createSynthesizer, type Synthesizer } from '../../../voice/synthesis.js';
import { transcriber } from '../../../voice/transcription.js';
import { VoiceActivityDetector } from '../../../voice/vad.js';
import type { Ears } from './pal-hearing.js';

const engines = new WeakMap<ServiceDeps, { synthesizer: Synthesizer; ears: Ears }>();

function enginesFor(deps: ServiceDeps): { synthesizer: Synthesizer; ears: Ears } {
  let found = engines.get(deps);
  if (!found) {
    const transcribe = transcriber(deps);
    found = {
      synthesizer: createSynthesizer(deps),
      ears: { detector: (sampleRate) => new VoiceActivityDetector(sampleRate), ...(transcribe ? { transcribe } : {}) },
    };
    engines.set(deps, found);
  }
  return found;
}

export function synthesizerFor(deps: ServiceDeps): Synthesizer {
  return enginesFor(deps).synthesizer;
}

export function earsFor(deps: ServiceDeps): Ears {
  return enginesFor(deps).ears;
}
