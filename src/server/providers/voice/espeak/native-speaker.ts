// The native bridge (bridge.ts, a child process compiled against libespeak-ng) seen as a Speaker: its
// binary frames read into the events the pool takes. Opt-in on Linux (PALKIT_LOCAL_VOICE=native).
import type { Logger } from '../../../platform/log.js';
import { leadsIn, visemeOfPhoneme } from '../visemes-of.js';
import { Bridge, FRAME, type BridgeRequest } from './bridge.js';
import type { BridgeBinary } from './bridge-binary.js';
import type { Speaker, SpeakerEvent, SpeakerFactory, SpeakerRequest } from './instance.js';

interface NativeRequest extends BridgeRequest {
  outer: SpeakerRequest;
}

/** Bridges from this binary, or none where it cannot be built (the pool then uses the command line). */
export function nativeSpeakers(binary: BridgeBinary, log: Logger): SpeakerFactory {
  return (hooks) => {
    const path = binary.get();
    if (!path) return null;
    const bridge: Bridge = new Bridge(
      path,
      log,
      (_b, request, reason) => hooks.onDeath(speaker, request ? (request as NativeRequest).outer : null, reason),
      (_b, request) => hooks.onIdle(speaker, (request as NativeRequest).outer),
    );
    const speaker: Speaker = {
      get id() {
        return bridge.pid;
      },
      get sampleRate() {
        return bridge.sampleRate;
      },
      get warm() {
        return bridge.sampleRate !== null;
      },
      run: (request) => bridge.run(nativeRequest(request)),
      cancel: (id) => bridge.cancel(id),
      stop: () => bridge.stop(),
    };
    return speaker;
  };
}

function nativeRequest(outer: SpeakerRequest): NativeRequest {
  return {
    outer,
    id: outer.id,
    voice: outer.voice,
    rate: outer.rate,
    text: outer.text,
    onFrame: (type, payload) => {
      const event = eventOf(type, payload);
      if (event) outer.onEvent(event);
    },
  };
}

function eventOf(type: number, payload: Buffer): SpeakerEvent | null {
  if (type === FRAME.audio) return { type: 'audio', samples: int16(payload) };
  if (type === FRAME.word && payload.length >= 12) {
    return { type: 'word', atMs: payload.readUInt32LE(0), position: payload.readUInt32LE(4), length: payload.readUInt32LE(8) };
  }
  if (type === FRAME.phoneme && payload.length >= 12) {
    const mnemonic = payload.subarray(4, 12).toString('utf8').replace(/\0.*$/s, '');
    return {
      type: 'viseme',
      atMs: payload.readUInt32LE(0),
      viseme: visemeOfPhoneme(mnemonic),
      ...(leadsIn(mnemonic) ? { leadsIn: true } : {}),
    };
  }
  if (type === FRAME.end) return { type: 'end' };
  if (type === FRAME.error) return { type: 'error', message: payload.toString('utf8') };
  return null;
}

export function int16(bytes: Buffer): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}
