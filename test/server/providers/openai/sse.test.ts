// Server-sent events as OpenAI-compatible providers stream them: events split anywhere across chunks,
// CRLF split between two chunks, comments and other fields skipped, and a bound on one event's size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerSentEventsError, sseData } from '../../../../src/server/providers/openai/sse.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of stream) out.push(data);
  return out;
}

describe('server-sent events', () => {
  it("yields each event's data however the bytes are cut", async () => {
    const text = ': keep-alive\n\nevent: delta\ndata: {"a":1}\r\n\r\ndata: line one\ndata:line two\n\nid: 7\ndata: [DONE]\n\n';
    const whole = await collect(sseData(chunks(text)));
    assert.deepEqual(whole, ['{"a":1}', 'line one\nline two', '[DONE]']);
    // Every split point, including between the CR and LF of a CRLF and inside a multi-byte character.
    const withUtf8 = `${text}data: grüße\n\n`;
    const bytes = new TextEncoder().encode(withUtf8);
    for (let at = 1; at < bytes.length; at++) {
      async function* split(): AsyncGenerator<Uint8Array> {
        yield bytes.subarray(0, at);
        yield bytes.subarray(at);
      }
      assert.deepEqual(await collect(sseData(split())), [...whole, 'grüße'], `split at ${at}`);
    }
  });

  it('takes a last event without its blank line, and refuses an event past the bound', async () => {
    assert.deepEqual(await collect(sseData(chunks('data: one\n\ndata: two'))), ['one', 'two']);
    await assert.rejects(collect(sseData(chunks('data: ', 'x'.repeat(600), 'y'.repeat(600)), 1000)), ServerSentEventsError);
  });
});
