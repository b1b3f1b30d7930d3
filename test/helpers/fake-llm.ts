// A loopback stand-in for an OpenAI-compatible chat endpoint, speaking its streaming wire format
// (server-sent `chat.completion.chunk` events ended by `data: [DONE]`), and its embeddings endpoint,
// recording every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlm {
  baseUrl: string;
  requests: Array<{ path: string; authorization: string | undefined; body: any }>;
  /** What the next replies say, split into the chunks they are streamed in. */
  reply: string[];
  /** Pause between two chunks (a model writing slowly). */
  chunkDelayMs: number;
  /** Replies for the next requests, in order, before `reply` is used again: text chunks, or function calls. */
  script: Array<string[] | { toolCalls: Array<{ id: string; name: string; arguments: string }> }>;
  /** A request without `stream: true` (e.g. a vision request) is answered whole: this text, or this HTTP status. */
  completion: string | number;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: Omit<FakeLlm, 'baseUrl' | 'close'> = {
    requests: [],
    reply: ['Hello', ' from', ' the', ' model.'],
    chunkDelayMs: 5,
    script: [],
    completion: 'A completion.',
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', async () => {
      fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(text) });
      if (req.url === '/v1/embeddings') {
        // One vector per input, listed in reverse (the wire carries `index`; a client must order by it).
        const input: string[] = fake.requests.at(-1)!.body.input;
        const data = input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, index + 1, 0.5] })).reverse();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'fake' }));
      }
      if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
      if (fake.requests.at(-1)!.body.stream !== true) {
        if (typeof fake.completion === 'number')
          return void res.writeHead(fake.completion, { 'content-type': 'application/json' }).end('{"error":{"message":"unavailable"}}');
        const body = {
          id: 'chatcmpl-2',
          object: 'chat.completion',
          created: 1,
          model: 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content: fake.completion }, finish_reason: 'stop' }],
        };
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(': keep-alive\n\n');
      res.write(chunk({ role: 'assistant', content: '' }, null));
      const next = fake.script.shift() ?? fake.reply;
      if (!Array.isArray(next)) {
        // Function calls as OpenAI streams them: the id and name first, the arguments in pieces.
        for (const [index, call] of next.toolCalls.entries()) {
          res.write(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null));
          for (let at = 0; at < call.arguments.length; at += 7)
            res.write(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + 7) } }] }, null));
        }
        res.write(chunk({}, 'tool_calls'));
        return void res.end('data: [DONE]\n\n');
      }
      for (const part of next) {
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
