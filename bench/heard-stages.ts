// Where a typed turn's heard latency goes, stage by stage, on one clock (Unix epoch ms): the service's
// debug marks (`turn stage` lines, pal-agent.ts) and the page's own probes, which this file plants before
// the element loads: when each binary WebSocket frame (the PAL's voice) arrived, and where the player
// scheduled each slice on its AudioContext (converted to the page's clock when it was scheduled).
import type { Page } from 'playwright-core';
import { percentile } from './rooms-report.js';

/** The page's probes, as an init script. */
export const stageProbes = `
window.__heardProbe = { frames: [], starts: [] };
{
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => { if (typeof event.data !== 'string') window.__heardProbe.frames.push(performance.now()); });
    }
  };
  // As the player counts a sample audible (pal-audio.ts AUDIBLE: 33 of 32768).
  const audible = 33 / 32768;
  // A buffer scheduled again (the player starts a run early) is one slice: its last schedule counts.
  const ids = new WeakMap();
  let nextId = 0;
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (when = 0, ...rest) {
    const now = performance.now();
    const context = this.context;
    const at = now + (Math.max(when, context.currentTime) - context.currentTime) * 1000;
    const data = this.buffer ? this.buffer.getChannelData(0) : new Float32Array(0);
    let first = -1;
    for (let i = 0; i < data.length; i++) if (Math.abs(data[i]) >= audible) { first = i; break; }
    if (this.buffer && !ids.has(this.buffer)) ids.set(this.buffer, nextId++);
    const slice = this.buffer ? ids.get(this.buffer) : -1;
    window.__heardProbe.starts.push({ slice, calledAt: now, at, audibleAt: first < 0 ? null : at + (first / this.buffer.sampleRate) * 1000 });
    return start.call(this, when, ...rest);
  };
}
`;

interface PageProbes {
  origin: number;
  frames: number[];
  starts: Array<{ slice: number; calledAt: number; at: number; audibleAt: number | null }>;
}

/** The marks of one turn, epoch ms; a stage that was not seen is absent. */
export interface TurnMarks {
  sent: number;
  received?: number;
  text?: number;
  sentence?: number;
  samples?: number;
  serverSent?: number;
  pageReceived?: number;
  scheduled?: number;
  audibleScheduled?: number;
  heard?: number;
}

const SERVICE_STAGES = { received: 'received', text: 'text', sentence: 'sentence', samples: 'samples', sent: 'serverSent' } as const;

/** The service's `turn stage` lines for one reply, from its log output. */
export function serviceMarks(output: string, inferenceId: string): Partial<TurnMarks> {
  const marks: Partial<TurnMarks> = {};
  for (const line of output.split('\n')) {
    if (!line.includes('"turn stage"') || !line.includes(inferenceId)) continue;
    try {
      const entry = JSON.parse(line) as { inference_id?: string; stage?: keyof typeof SERVICE_STAGES; at?: number };
      const key = entry.stage && SERVICE_STAGES[entry.stage];
      if (entry.inference_id === inferenceId && key && typeof entry.at === 'number') marks[key] ??= entry.at;
    } catch {
      /* another line */
    }
  }
  return marks;
}

/** The page's marks of the answer to the turn sent at `sentAt` (page clock): the first voice frames after it. */
export async function pageMarks(page: Page, sentAt: number): Promise<Partial<TurnMarks>> {
  const probes: PageProbes = await page.evaluate(() => ({ origin: performance.timeOrigin, ...(window as any).__heardProbe }));
  const marks: Partial<TurnMarks> = {};
  const frame = probes.frames.find((t) => t > sentAt);
  const lastSchedule = (slice: number | undefined) => (slice === undefined ? undefined : probes.starts.findLast((s) => s.slice === slice));
  const first = lastSchedule(probes.starts.find((s) => s.calledAt > sentAt)?.slice);
  const audible = lastSchedule(probes.starts.find((s) => s.calledAt > sentAt && s.audibleAt !== null)?.slice);
  if (frame !== undefined) marks.pageReceived = probes.origin + frame;
  if (first) marks.scheduled = probes.origin + first.at;
  if (audible?.audibleAt) marks.audibleScheduled = probes.origin + audible.audibleAt;
  return marks;
}

const SHARES: Array<[string, keyof TurnMarks, keyof TurnMarks]> = [
  ['page → service', 'sent', 'received'],
  ['→ reply text', 'received', 'text'],
  ['→ to the voice', 'text', 'sentence'],
  ['→ first samples', 'sentence', 'samples'],
  ['→ sent', 'samples', 'serverSent'],
  ['→ page', 'serverSent', 'pageReceived'],
  ['→ scheduled (jitter buffer)', 'pageReceived', 'scheduled'],
  ['→ first audible sample (leading silence)', 'scheduled', 'audibleScheduled'],
  ['→ at the output', 'audibleScheduled', 'heard'],
];

/** p50/p95 of each stage's own share over the turns; a stage missing from a turn is left out of its figures. */
export function formatStages(turns: TurnMarks[]): string {
  const parts = SHARES.map(([name, from, to]) => {
    const values = turns.flatMap((t) => (t[from] !== undefined && t[to] !== undefined ? [t[to]! - t[from]!] : []));
    return `${name} ${values.length ? `${percentile(values, 0.5).toFixed(0)}/${percentile(values, 0.95).toFixed(0)}` : '—'}`;
  });
  return `stages p50/p95 ms: ${parts.join(', ')}`;
}
