// The browser's speech recognition as a test drives it, for the elements' local and Daily hearing tests.
import type { Recognition } from '../../../src/palkit/client/transport/local-listener.js';

/**
 * The browser's SpeechRecognition as the Web Speech API defines it (start/stop/abort; result, error and
 * end events), driven by the test: Chromium's own needs Google's recognition service, unreachable here.
 */
export class FakeRecognition extends EventTarget implements Recognition {
  continuous = false;
  interimResults = false;
  lang = '';
  running = false;
  calls: string[] = [];
  start(): void {
    if (this.running) throw new DOMException('recognition has already started', 'InvalidStateError');
    this.running = true;
    this.calls.push('start');
  }
  stop(): void {
    this.calls.push('stop');
    this.end();
  }
  abort(): void {
    this.calls.push('abort');
    this.end();
  }
  end(): void {
    if (!this.running) return;
    this.running = false;
    this.dispatchEvent(new Event('end'));
  }
  /** One result list as Chrome delivers it: earlier results stay in the list, resultIndex marks the new one. */
  hear(results: Array<[string, boolean]>, resultIndex = results.length - 1): void {
    const list = results.map(([transcript, isFinal]) => Object.assign([{ transcript, confidence: 0.9 }], { isFinal }));
    this.dispatchEvent(Object.assign(new Event('result'), { resultIndex, results: list }));
  }
  fail(error: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { error }));
    this.end();
  }
}

/** Runs `body` in a page whose browser has no speech recognition (as Firefox), then restores it. */
export async function withoutBrowserRecognition(body: () => Promise<void>): Promise<void> {
  const scope = window as unknown as Record<string, unknown>;
  const saved = ['SpeechRecognition', 'webkitSpeechRecognition'].map(
    (name) => [name, Object.getOwnPropertyDescriptor(window, name)] as const,
  );
  for (const [name] of saved) Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
  try {
    await body();
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(window, name, descriptor);
      else delete scope[name];
    }
  }
}
