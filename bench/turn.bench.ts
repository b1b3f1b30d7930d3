// Turn latency in a local room with the local voice: from a typed message (conversation.respond) to the
// first sample of the PAL's spoken answer reaching the visitor's socket, over 20 turns, for an echo PAL
// and for a full PAL answering from its knowledge (no language model). Goal: p50 ≤ 800 ms.
import WebSocket from 'ws';
import { AudioFrameKind, decodeAudioFrame, roomSocketUrl } from '../src/protocol/room.js';
import { loadConfig } from '../src/server/platform/config.js';
import { signMeetingToken } from '../src/server/providers/conferencing/meeting-token.js';
import { createService } from '../src/server/app/service.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const QUESTIONS = ['How long does delivery take?', 'Can I return a bike?', 'Do you have cargo bikes?', 'What are your opening hours?'];

export default async function turnLatency(): Promise<void> {
  const config = loadConfig({ PALKIT_DATA: 'memory', PALKIT_API_KEYS: 'bench-key:1', PALKIT_LOG: 'error' }, 0);
  const service = await createService(config, { runJobs: false });
  const { url } = await service.listen(0, '127.0.0.1');
  (config as { publicUrl: string }).publicUrl = url;
  const { db, secrets } = service.deps;
  try {
    for (const mode of ['echo', 'full'] as const) {
      const palId = `pbench${mode}`;
      await db
        .insertInto('pals')
        .values({
          pal_id: palId,
          owner_id: 1,
          pal_name: 'Bench PAL',
          pipeline_mode: mode,
          definition: JSON.stringify({ system_prompt: 'You help visitors of Northwind Bikes.', custom_greeting: 'Hi there.' }),
        })
        .execute();
      const conversationId = `cbench${mode}`;
      const conversationUrl = `${url}/rooms/${conversationId}`;
      await db
        .insertInto('conversations')
        .values({
          conversation_id: conversationId,
          owner_id: 1,
          pal_id: palId,
          face_id: null,
          deployment_id: null,
          conversation_name: 'Bench',
          provider: 'local',
          conversation_url: conversationUrl,
          callback_url: null,
          conversational_context:
            'Northwind Bikes delivers within Germany in 3 to 5 working days. Bikes can be returned within 30 days. The shop opens at 9 am.',
          custom_greeting: 'Hi there.',
          memory_stores: '[]',
          properties: '{}',
          visitor_key: null,
          shutdown_reason: null,
        })
        .execute();
      const token = signMeetingToken(secrets, conversationId, new Date(Date.now() + 3600_000), 'visitor');
      const latencies = await measure(conversationUrl, token, conversationId);
      console.log(`${mode} PAL, typed message → first PAL audio sample, ${latencies.length} turns: ${summary(latencies)}`);
    }
  } finally {
    await service.close();
  }
}

async function measure(conversationUrl: string, token: string, conversationId: string): Promise<number[]> {
  const socket = new WebSocket(roomSocketUrl(conversationUrl));
  let waiting: { since: number; resolve: (ms: number) => void } | null = null;
  let silent: (() => void) | null = null;
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      const frame = decodeAudioFrame(data as Buffer);
      if (frame?.kind === AudioFrameKind.palVoice && waiting && frame.samples.some((s) => Math.abs(s) > 300)) {
        waiting.resolve(performance.now() - waiting.since);
        waiting = null;
      }
      return;
    }
    const frame = JSON.parse(data.toString());
    if (frame.type === 'app-message' && frame.data?.event_type === 'conversation.replica.stopped_speaking') silent?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => socket.send(JSON.stringify({ type: 'join', meeting_token: token })));
    socket.once('error', reject);
    socket.once('message', () => resolve());
  });
  await new Promise<void>((resolve) => (silent = resolve)); // the greeting
  const latencies: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const text = QUESTIONS[turn % QUESTIONS.length]!;
    const done = new Promise<void>((resolve) => (silent = resolve));
    const heard = new Promise<number>((resolve) => (waiting = { since: performance.now(), resolve }));
    socket.send(
      JSON.stringify({
        type: 'app-message',
        data: { message_type: 'conversation', event_type: 'conversation.respond', conversation_id: conversationId, properties: { text } },
      }),
    );
    latencies.push(await heard);
    await done;
  }
  socket.close();
  return latencies;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
}
