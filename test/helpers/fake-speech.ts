// A loopback stand-in for OpenAI-compatible speech services, speaking their wire formats:
// POST /v1/audio/transcriptions (multipart/form-data with a `file`, `model`, `language`; answers
// `{ "text" }`, or server-sent `transcript.text.delta`/`transcript.text.done` events when `stream=true`)
// and POST /v1/audio/speech (JSON `{ model, input, voice, response_format: "pcm" }`; answers 24 kHz
// 16-bit PCM in chunks that split samples). It records each request; `failWith` makes it answer an error
// status with OpenAI's error body, `hang` makes it never answer, `delayMs` makes a transcription take
// that long (as a provider's inference does).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSpeechServices {
  url: string;
  speeches: Array<{ authorization: string | undefined; body: any }>;
  hang: boolean;
  transcriptions: Array<{ authorization: string | undefined; model: string; language: string; audioBytes: number; stream: boolean }>;
  transcript: string;
  failWith: number | null;
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeSpeechServices(options: { transcript: string; delayMs?: number }): Promise<FakeSpeechServices> {
  const fake: Omit<FakeSpeechServices, 'url' | 'close'> = { transcriptions: [], speeches: [], transcript: options.transcript, failWith: null, hang: false, delayMs: options.delayMs ?? 0 };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      if (fake.hang) return;
      if (req.method === 'POST' && req.url === '/v1/audio/speech') return speak(JSON.parse(Buffer.concat(parts).toString()), req.headers.authorization, res);
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end();
      const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(parts) }).formData();
      const file = form.get('file');
      const stream = form.get('stream') === 'true';
      if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
      fake.transcriptions.push({
        authorization: req.headers.authorization, model: String(form.get('model')), language: String(form.get('language') ?? ''),
        audioBytes: file instanceof Blob ? file.size : 0, stream,
      });
      if (fake.failWith) return void res.writeHead(fake.failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the fake was told to fail', type: 'server_error' } }));
      if (!stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: fake.transcript }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of fake.transcript.split(/(?<= )/)) res.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta: word })}\n\n`);
      res.end(`data: ${JSON.stringify({ type: 'transcript.text.done', text: fake.transcript })}\n\n`);
    });
  });
  /** 120 ms of a 200 Hz tone per word of the input, streamed in chunks of 1001 bytes. */
  async function speak(body: any, authorization: string | undefined, res: import('node:http').ServerResponse): Promise<void> {
    fake.speeches.push({ authorization, body });
    if (fake.failWith) return void res.writeHead(fake.failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the fake was told to fail', type: 'server_error' } }));
    const samples = 24000 * 0.12 * String(body.input).split(/\s+/).length;
    const pcm = Buffer.alloc(samples * 2);
    for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 200 * i) / 24000)), i * 2);
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
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
