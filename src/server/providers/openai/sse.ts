// The `data` of each server-sent event in a streamed answer (https://html.spec.whatwg.org/#event-stream-interpretation:
// lines of `field: value`, an event ended by a blank line, its `data` lines joined by newlines). An event
// longer than any a provider sends ends the stream with an error, never the process's memory.
export class ServerSentEventsError extends Error {}

/** The longest event kept (a chat chunk is a few words; a done event at most a whole answer). */
export const MAX_EVENT_CHARS = 256 * 1024;

export async function* sseData(body: AsyncIterable<Uint8Array>, maxEventChars = MAX_EVENT_CHARS): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let held = 0;
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR at the very end may be the first half of a CRLF split between chunks: wait for the next.
      if (newline === buffer.length - 1 && buffer.endsWith('\r')) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
        held = 0;
      } else if (line.startsWith('data:')) {
        const value = line.slice(line.startsWith('data: ') ? 6 : 5);
        data.push(value);
        held += value.length;
      }
      // `event:`, `id:`, `retry:` and `:` comments (keep-alives) are not needed: the JSON says what it is.
    }
    if (buffer.length + held > maxEventChars) throw new ServerSentEventsError('the event stream sent an event too long to be one');
  }
  buffer += decoder.decode();
  if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
  if (data.length) yield data.join('\n');
}
