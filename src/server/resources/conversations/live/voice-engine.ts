// One speech synthesiser per service, shared by its rooms (the local engine keeps a helper process).
import type { ServiceDeps } from '../../../context.js';
import { createSynthesizer, type Synthesizer } from '../../../voice/synthesis.js';
import type { Ears } from './pal-hearing.js';

const engines = new WeakMap<ServiceDeps, Synthesizer>();

export function synthesizerFor(deps: ServiceDeps): Synthesizer {
  let engine = engines.get(deps);
  if (!engine) engines.set(deps, (engine = createSynthesizer(deps)));
  return engine;
}

/** PLACEHOLDER until the voice branch lands. */
export function earsFor(_deps: ServiceDeps): Ears {
  return { detector: () => ({ bargeIn: false, push: () => [] }) };
}
