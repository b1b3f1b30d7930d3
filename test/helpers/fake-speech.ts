// A loopback stand-in for OpenAI-compatible speech services, speaking their wire formats:
// POST /v1/audio/transcriptions (multipart/form-data with a `file`, `model`, `language`; answers
// `{ "text" }`, or server-sent `transcript.text.delta`/`transcript.text.done` events when `stream=true`)
// and POST /v1/audio/speech (JSON `{ model, input, voice, response_format: "pcm" }`; answers 24 kHz
// 16-bit PCM in chunks that split samples). It records each request; `failWith` makes it answer an error
// status with OpenAI's error body, `hang` makes it never answer. A transcription is answered `delayMs`
// after the request (streamed deltas spread over its last third, as a recogniser decodes); `recognise`
// makes the text depend on the audio sent (the e2e's recogniser of its own spoken questions); `streams`
// false makes it answer JSON even when asked to stream (as whisper-1 does). `voice` makes it speak real
// audio of the input (24 kHz samples) instead of its tone.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSpeechServices {
  url: string;
  speeches: Array<{ authorization: string | undefined; body: any }>;
  hang: boolean;
  transcriptions: Array<{
    authorization: string | undefined;
    model: string;
    language: string;
    audioBytes: number;
    stream: boolean;
    text?: string;
  }>;
  transcript: string;
  failWith: number | null;
  delayMs: number;
  streams: boolean;
  recognise: ((wav: Uint8Array) => string) | null;
  voice: ((input: string) => Int16Array) | null;
  close(): Promise<void>;
}

export async function startFakeSpeechServices(options: { transcript: string; delayMs?: number }): Promise<FakeSpeechServices> {
  const fake: Omit<FakeSpeechServices, 'url' | 'close'> = {
    transcriptions: [],
    speeches: [],
    transcript: options.transcript,
    failWith: null,
    hang: false,
    delayMs: options.delayMs ?? 0,
    streams: true,
    recognise: null,
    voice: null,
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      if (fake.hang) return;
      if (req.method === 'POST' && req.url === '/v1/audio/speech')
        return speak(JSON.parse(Buffer.concat(parts).toString()), req.headers.authorization, res);
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end();
      const receivedAt = performance.now();
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(parts),
      }).formData();
      const file = form.get('file');
      const stream = form.get('stream') === 'true';
      const text = fake.recognise && file instanceof Blob ? fake.recognise(new Uint8Array(await file.arrayBuffer())) : fake.transcript;
      const wait = (share: number) => sleep(Math.max(0, receivedAt + fake.delayMs * share - performance.now()));
      fake.transcriptions.push({
        authorization: req.headers.authorization,
        model: String(form.get('model')),
        language: String(form.get('language') ?? ''),
        audioBytes: file instanceof Blob ? file.size : 0,
        stream,
        ...(fake.recognise ? { text } : {}),
      });
      if (fake.failWith)
        return void res
          .writeHead(fake.failWith, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'the fake was told to fail', type: 'server_error' } }));
      if (!stream || !fake.streams) {
        await wait(1);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
      }
      await wait(2 / 3);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = text.split(/(?<= )/);
      for (const [i, word] of words.entries()) {
        if (i > 0) await wait(2 / 3 + i / words.length / 3);
        res.write(`event: transcript.text.delta\ndata: ${JSON.stringify({ type: 'transcript.text.delta', delta: word })}\n\n`);
      }
      await wait(1);
      res.end(`event: transcript.text.done\ndata: ${JSON.stringify({ type: 'transcript.text.done', text })}\n\n`);
    });
  });
  /** 120 ms of a 200 Hz tone per word of the input, streamed in chunks of 1001 bytes. */
  async function speak(body: any, authorization: string | undefined, res: import('node:http').ServerResponse): Promise<void> {
    fake.speeches.push({ authorization, body });
    if (fake.failWith)
      return void res
        .writeHead(fake.failWith, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'the fake was told to fail', type: 'server_error' } }));
    const spoken = fake.voice?.(String(body.input));
    const samples = spoken?.length ?? 24000 * 0.12 * String(body.input).split(/\s+/).length;
    const pcm = Buffer.alloc(samples * 2);
    for (let i = 0; i < samples; i++)
      pcm.writeInt16LE(spoken ? spoken[i]! : Math.round(12000 * Math.sin((2 * Math.PI * 200 * i) / 24000)), i * 2);
    res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
    for (let at = 0; at < pcm.length; at += 1001) {
      res.write(pcm.subarray(at, at + 1001));
      await new Promise((r) => setTimeout(r, 1));
    }
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
