// A loopback stand-in for OpenAI-compatible speech services, speaking their wire formats:
// POST /v1/audio/transcriptions (multipart/form-data with a `file`, `model`, `language`; answers
// `{ "text" }`, or server-sent `transcript.text.delta`/`transcript.text.done` events when `stream=true`).
// It records each request; `failWith` makes it answer an error status with OpenAI's error body.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSpeechServices {
  url: string;
  transcriptions: Array<{ authorization: string | undefined; model: string; language: string; audioBytes: number; stream: boolean }>;
  transcript: string;
  failWith: number | null;
  close(): Promise<void>;
}

export async function startFakeSpeechServices(options: { transcript: string }): Promise<FakeSpeechServices> {
  const fake: Omit<FakeSpeechServices, 'url' | 'close'> = { transcriptions: [], transcript: options.transcript, failWith: null };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end();
      const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(parts) }).formData();
      const file = form.get('file');
      const stream = form.get('stream') === 'true';
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
