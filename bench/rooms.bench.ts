// Voiced calls one core holds (issue 26, item 4). One `palkit serve` instance held to one core by a
// cgroup (bench/cpu-cap.ts, as the instances bench caps them), a full PAL answering from the
// conversation's context (no language model) in its local voice, and N simulated visitors outside the cap
// (bench/room-visitor.ts): each keeps its microphone open over the room WebSocket in real time, speaks a
// question of real speech (espeak-ng, rendered once) a few times, and hears the reply as the page would.
// The service transcribes through a fake OpenAI-compatible server (in this process, outside the cap)
// answering after 150 ms. N doubles until a round fails — p95 heard latency over 1 s, a PAL voice slice
// late (the page's player ran dry mid-utterance, see bench/playout.ts), or a question left unanswered —
// then is bisected. Each round has an instance of its own, so that its memory per call is its own.
// BENCH_ROOMS_FACE=trained gives the PAL a face the round's instance trains from the shared portrait
// (POST /v2/faces, before the calls and their measurement) instead of Ada, and every visitor fetches its rig
// as the elements do: the face is drawn on the visitor's device, the service only serves the rig's files.
import { readFileSync } from 'node:fs';
import { portraitPhoto } from '../test/helpers/face-clips.js';
import { startFileServer } from '../test/helpers/loopback.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../test/helpers/fake-speech.js';
import { capFor, type CpuCap } from './cpu-cap.js';
import { cpuSnapshot, cpuUse } from './cpu.js';
import { startInstance, stopInstance } from './instance-process.js';
import { MicClock } from './mic-clock.js';
import { formatRound, formatStages, held, percentile, type Round } from './rooms-report.js';
import { SimulatedVisitor, type VisitorFigures } from './room-visitor.js';
import { spokenTurn, type SpokenTurn } from './spoken-turn.js';

const QUESTION = 'How long does delivery take?';
const CONTEXT =
  'Northwind Bikes delivers within Germany in 3 to 5 working days. Bikes can be returned within 30 days. The shop opens at 9 am.';
const STT_DELAY_MS = 150;
const HEARD_GOAL_MS = 1000;
const TURNS = Number(process.env.BENCH_ROOMS_TURNS ?? 4);
const FIRST_N = Number(process.env.BENCH_ROOMS_FROM ?? 8);
const MAX_N = Number(process.env.BENCH_ROOMS_MAX ?? 256);
/** Only one N is run (no search) when set. */
const ONLY_N = process.env.BENCH_ROOMS_N ? Number(process.env.BENCH_ROOMS_N) : null;
/** A folder for the instance's CPU profiles (node --cpu-prof): rooms-<N>/, one file per thread (the module loader has its own). */
const PROFILE_DIR = process.env.BENCH_ROOMS_PROFILE;
/**
 * cpu.shares of the instance's cgroup (and the visitors'): the most cgroup v1 takes. Shares weigh a cgroup
 * against every other runnable task at its level, each worth 1024: on a machine where twenty other tasks
 * run, 8192 shares got the instance less than half a core (its event loop stalled up to 277 ms at 41% of
 * a core used). With the most, the one core is one it gets; the quota still holds it to one.
 */
const SHARES = 262_144;
const KEY = 'bench-key';
/** `trained`: the PAL speaks with a face trained from the shared portrait; otherwise Ada (drawn in the page). */
const FACE = process.env.BENCH_ROOMS_FACE === 'trained' ? 'trained' : 'ada';

export default async function roomsBench(): Promise<void> {
  const turn = spokenTurn(QUESTION);
  const stt = await startFakeSpeechServices({ transcript: QUESTION, delayMs: STT_DELAY_MS });
  // The visitors and the fake transcription have a core's budget of their own, weighted as the
  // instance's is: on a machine others share, their clocks must not be what falls behind.
  const visitorsCap = capFor(`palkit_bench_rooms_visitors_${process.pid}`, 1, { shares: SHARES });
  if (!visitorsCap) {
    await stt.close();
    console.log('skipped: no writable cgroup here to hold the instance to one core (run as root on Linux)');
    return;
  }
  visitorsCap.add(process.pid);
  console.log(
    `one instance held to 1 CPU (cgroup quota, cpu.shares ${SHARES}); visitors and the fake transcription (${STT_DELAY_MS} ms) outside it, in a cgroup of their own (1 CPU, same weight); ` +
      `each visitor speaks "${QUESTION}" (${(turn.speechEndsMs / 1000).toFixed(2)} s of espeak-ng speech, 20 ms frames in real time) ${TURNS} times; ` +
      `face: ${FACE === 'trained' ? "trained from the shared portrait by each round's instance, its rig fetched by every visitor" : 'Ada'}; ` +
      `heard = end of speech → first audible PAL sample as the page plays it (arrival + its jitter buffer); machine load ${loadAverage()}; Node ${process.version}`,
  );
  console.log('    N  p50 heard  p95 heard  late/slices   unanswered  instance CPU  throttled  RSS idle→peak   per call  visitor lag p99');
  const rounds: Round[] = [];
  try {
    const pass = (r: Round) => held(r, HEARD_GOAL_MS);
    const run = async (n: number) => {
      const r = await round(n, turn, stt);
      rounds.push(r);
      console.log(formatRound(r, pass(r)));
      console.log(formatStages(r.stages));
      if (r.face) console.log(`          face: ${r.face}`);
      console.log(
        `          instance event loop delay ${r.loopLagMs ? `p99 ${r.loopLagMs.p99.toFixed(0)} ms, max ${r.loopLagMs.max.toFixed(0)} ms` : 'not reported'}; visitors' process CPU ${(r.visitorCpuCores * 100).toFixed(0)}%`,
      );
      return pass(r);
    };
    if (ONLY_N !== null) await run(ONLY_N);
    else {
      let good = 0;
      let bad = 0;
      for (let n = FIRST_N; n <= MAX_N; n *= 2) {
        if (await run(n)) good = n;
        else {
          bad = n;
          break;
        }
      }
      // Between the last N that held and the first that did not, to within an eighth.
      while (bad && good && bad - good > Math.max(2, good / 8)) {
        const mid = Math.round((good + bad) / 2);
        if (await run(mid)) good = mid;
        else bad = mid;
      }
    }
  } finally {
    await stt.close();
    visitorsCap.release(process.pid);
    visitorsCap.remove();
  }
  const best = rounds.filter((r) => held(r, HEARD_GOAL_MS)).sort((a, b) => b.n - a.n)[0];
  if (!best) {
    console.log(`rooms: no N held (p95 heard ≤ ${HEARD_GOAL_MS} ms, no late frames); see the rounds above`);
    return;
  }
  console.log(
    `rooms: ${best.n} voiced calls per core (p95 heard ${percentile(best.heardMs, 0.95).toFixed(0)} ms, late frames ${best.lateSlices})`,
  );
  console.log(
    `memory per call: ${((best.rssPeakMb - best.rssIdleMb) / best.n).toFixed(1)} MB (instance RSS ${best.rssIdleMb.toFixed(0)} → ${best.rssPeakMb.toFixed(0)} MB with ${best.n} calls)`,
  );
}

async function round(n: number, turn: SpokenTurn, stt: FakeSpeechServices): Promise<Round> {
  const cap = capFor(`palkit_bench_rooms_${process.pid}_${n}`, 1, { shares: SHARES });
  if (!cap) throw new Error('could not make a cgroup for the instance');
  const instance = await startInstance(
    {
      PALKIT_DATA: 'memory',
      PALKIT_API_KEYS: `${KEY}:1`,
      PALKIT_LOG: 'error',
      PALKIT_STT_BASE_URL: `${stt.url}/v1`,
      PALKIT_STT_API_KEY: 'sk-bench',
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8',
      // Every simulated visitor comes from 127.0.0.1, as from one load generator: the front door's
      // per-address caps (16 pending upgrades, 256 connections) would refuse them as one flooding visitor.
      PALKIT_MAX_PENDING_UPGRADES_PER_ADDRESS: '0',
      PALKIT_MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    (pid) => cap.add(pid),
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/rooms-${n}`] : [],
  );
  const pid = instance.process.pid!;
  try {
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${instance.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const trained = FACE === 'trained' ? await trainFace(instance.url) : null;
    const pal = await api('/v2/pals', {
      pal_name: 'Bench PAL',
      pipeline_mode: 'full',
      system_prompt: 'You help visitors of Northwind Bikes.',
      custom_greeting: 'Hi.',
      default_face_id: trained?.faceId ?? 'rpalkitada',
      disclosure_type: 'off',
    });
    const calls: Array<{ url: string; token: string }> = [];
    for (let i = 0; i < n; i++) {
      const c = await api('/v2/conversations', { pal_id: pal.pal_id, conversational_context: CONTEXT, custom_greeting: 'Hi.' });
      calls.push({ url: String(c.conversation_url), token: String(c.meeting_token) });
    }
    await sleep(1000);
    const rssIdleMb = rssMb(pid);
    let rssPeakMb = rssIdleMb;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 500);
    const clock = new MicClock();
    await eventLoopLag(instance.url); // prom-client starts its delay histogram afresh after each read
    const cpuBefore = cpuSnapshot([...cap.pids(), process.pid]);
    const throttleBefore = cap.throttling();
    const startedAt = performance.now();
    // Joins spread over up to 3 s, as visitors arrive; questions spread over one turn's length.
    const options = {
      turns: TURNS,
      staggerMs: 6000,
      pauseMs: { min: 800, max: 2000 },
      replyTimeoutMs: 15_000,
      fetchFace: FACE === 'trained',
    };
    const outcomes = await Promise.allSettled(
      calls.map(async (call, i) => {
        await sleep((i / n) * Math.min(3000, n * 50));
        return new SimulatedVisitor(clock, turn, options).run(call.url, call.token);
      }),
    );
    const seconds = (performance.now() - startedAt) / 1000;
    const loopLagMs = await eventLoopLag(instance.url);
    const instancePids = cap.pids();
    const cpuAfter = cpuSnapshot([...instancePids, process.pid]);
    const cpu = cpuUse(cpuBefore, { ...cpuAfter, processes: new Map([...cpuAfter.processes].filter(([p]) => p !== process.pid)) });
    const visitorCpuSeconds = ((cpuAfter.processes.get(process.pid) ?? 0) - (cpuBefore.processes.get(process.pid) ?? 0)) / 100;
    const throttleAfter = cap.throttling();
    clearInterval(sampler);
    clock.stop();
    const figures = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
    if (failures.length) console.log(`      ${failures.length} visitors failed, e.g. ${failures[0]}`);
    const sum = (pick: (f: VisitorFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
    const periods = throttleAfter.periods - throttleBefore.periods;
    return {
      n,
      heardMs: figures.flatMap((f) => f.heardMs),
      stages: figures.flatMap((f) => f.stages),
      lateSlices: sum((f) => f.lateSlices),
      palSlices: sum((f) => f.palSlices),
      unanswered: sum((f) => f.unanswered),
      failedVisitors: failures.length,
      cpuCores: cpu.processSeconds / seconds,
      throttledShare: periods ? (throttleAfter.throttled - throttleBefore.throttled) / periods : 0,
      rssIdleMb,
      rssPeakMb,
      visitorLagP99Ms: percentile(clock.lagMs, 0.99),
      visitorCpuCores: visitorCpuSeconds / seconds,
      loopLagMs,
      seconds,
      face: trained ? faceServed(trained.trainSeconds, figures, n) : null,
    };
  } finally {
    await stopInstance(instance);
    await waitUntilEmpty(cap);
    cap.remove();
  }
}

/** A face trained by the instance from the shared portrait, as a customer trains one (a loopback URL it may fetch). */
async function trainFace(url: string): Promise<{ faceId: string; trainSeconds: number }> {
  const files = await startFileServer({ '/portrait.jpg': { body: portraitPhoto('jpg'), contentType: 'image/jpeg' } });
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  try {
    const started = performance.now();
    const created = (await (
      await fetch(`${url}/v2/faces`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ face_name: 'Bench face', train_video_url: `${files.url}/portrait.jpg` }),
      })
    ).json()) as { face_id?: string };
    if (!created.face_id) throw new Error(`POST /v2/faces: ${JSON.stringify(created)}`);
    for (;;) {
      const face = (await (await fetch(`${url}/v2/faces/${created.face_id}`, { headers })).json()) as {
        status?: string;
        error_message?: string;
      };
      if (face.status === 'completed') return { faceId: created.face_id, trainSeconds: (performance.now() - started) / 1000 };
      if (face.status === 'error' || performance.now() - started > 180_000)
        throw new Error(`training the bench face: ${face.status} ${face.error_message ?? ''}`);
      await sleep(250);
    }
  } finally {
    await files.close();
  }
}

/** What serving the trained face cost: who fetched its rig, how many bytes, with which caching. */
function faceServed(trainSeconds: number, figures: VisitorFigures[], n: number): string {
  const fetched = figures.flatMap((f) => (f.face ? [f.face] : []));
  const bytes = fetched.reduce((total, f) => total + f.bytes, 0);
  const caching = [...new Set(fetched.flatMap((f) => f.cacheControl))].join(' | ');
  return (
    `trained in ${trainSeconds.toFixed(1)} s before the calls; rig fetched by ${fetched.length}/${n} visitors, ` +
    `${fetched[0]?.files ?? 0} files, ${(bytes / fetched.length / 1e6 || 0).toFixed(2)} MB each (${(bytes / 1e6).toFixed(1)} MB in all), Cache-Control ${caching || '—'}`
  );
}

/** The instance's event loop delay since it was last read (prom-client's default metrics), ms; null without them. */
async function eventLoopLag(url: string): Promise<{ p99: number; max: number } | null> {
  const text = await fetch(`${url}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  const value = (name: string) =>
    Number(new RegExp(`^palkit_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) * 1000;
  const lag = { p99: value('p99'), max: value('max') };
  return Number.isFinite(lag.p99) && Number.isFinite(lag.max) ? lag : null;
}

/** The helper processes (the voice's bridges) exit after the service; the cgroup can go once they have. */
async function waitUntilEmpty(cap: CpuCap): Promise<void> {
  for (let i = 0; i < 50 && cap.pids().length; i++) await sleep(100);
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : Number.NaN;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
