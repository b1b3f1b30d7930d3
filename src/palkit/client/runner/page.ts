// The runner page's script (bundled by the runner process, live/runner/page-entry.ts): starts the bridge
// with what the process hands it and reports back through the function the process exposed. daily-js
// is the call object unless the page was given one (`window.palkitCallObject`, set before this script
// runs: the real-time test's recording stand-in, as daily-js cannot reach Daily from a test machine).
import Daily from '@daily-co/daily-js';
import type { CreateCallObject } from '../transport/daily.js';
import { DailyPalBridge, type BridgeStart } from './daily-pal-bridge.js';

type Report =
  { type: 'joined' } | { type: 'published'; tracks: Array<'audio' | 'video'> } | { type: 'ended'; reason: string; failed: boolean };

declare global {
  interface Window {
    palkitReport?: (report: Report) => Promise<void>;
    palkitCallObject?: CreateCallObject;
    palkitRunner?: { start(start: BridgeStart): Promise<void>; stop(): Promise<void> };
  }
}

let bridge: DailyPalBridge | null = null;
const report = (r: Report) => void window.palkitReport?.(r);

window.palkitRunner = {
  async start(start) {
    const createCallObject: CreateCallObject = window.palkitCallObject ?? ((options) => Daily.createCallObject(options));
    bridge = new DailyPalBridge(
      // The room's microphone worklet is served by the service this page was opened on.
      { createCallObject },
      {
        joined: () => report({ type: 'joined' }),
        published: (tracks) => report({ type: 'published', tracks }),
        ended: (reason, failed) => report({ type: 'ended', reason, failed }),
      },
    );
    await bridge.start(start);
  },
  async stop() {
    await bridge?.stop();
  },
};
