// The service's voice and ears, shared by its rooms: one speech synthesiser (the local engine keeps a
// helper process), and voice activity detection plus the configured transcriber for hearing.
import type { ServiceDeps } from '../../platform/context.js';
import { onePer } from '../../platform/one-per.js';
import { createSynthesizer, type Synthesizer } from '../../providers/voice/synthesis.js';
import { transcriber } from './transcription.js';
import { VoiceActivityDetector } from './vad.js';
import type { Ears } from '../agent/hearing.js';

const enginesFor = onePer((deps: ServiceDeps): { synthesizer: Synthesizer; ears: Ears } => {
  const transcribe = transcriber(deps);
  return {
    synthesizer: createSynthesizer(deps),
    ears: { detector: (sampleRate) => new VoiceActivityDetector(sampleRate), ...(transcribe ? { transcribe } : {}) },
  };
});

export function synthesizerFor(deps: ServiceDeps): Synthesizer {
  return enginesFor(deps).synthesizer;
}

export function earsFor(deps: ServiceDeps): Ears {
  return enginesFor(deps).ears;
}
