// A loopback stand-in for an OpenAI-compatible chat endpoint, speaking its streaming wire format
// (server-sent `chat.completion.chunk` events ended by `data: [DONE]`), recording every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlm {
  baseUrl: string;
  requests: Array<{ path: string; authorization: string | undefined; body: any }>;
  /** What the next replies say, split into the chunks they are streamed in. */
  reply: string[];
  /** Pause between two chunks (a model writing slowly). */
  chunkDelayMs: number;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: Omit<FakeLlm, 'baseUrl' | 'close'> = { requests: [], reply: ['Hello', ' from', ' the', ' model.'], chunkDelayMs: 5 };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', async () => {
      fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(text) });
      if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(': keep-alive\n\n');
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (const part of fake.reply) {
        res.write(chunk({ content: part }, null));
        await new Promise((r) => setTimeout(r, fake.chunkDelayMs));
      }
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
