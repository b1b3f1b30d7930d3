// Posts `count` bodies of `bytes` bytes at once to `url` from a process of its own (so the uploads do
// not share an event loop with the service under test) and prints each outcome as JSON:
// { status, body } or { status: 0, error } when the request failed (a reset, EPIPE). Each body is sent
// with its Content-Length in 64 KiB pieces a millisecond apart, as a client on a real network sends a
// large upload: still sending when the service answers.
// Usage: node oversized-poster.mjs <url> <api-key> <bytes> <count>
const [url, key, bytes, count] = process.argv.slice(2);
const total = Number(bytes);
const piece = new Uint8Array(64 * 1024).fill(97);

function paced() {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= total) return controller.close();
      await new Promise((r) => setTimeout(r, 1));
      const n = Math.min(piece.length, total - sent);
      sent += n;
      controller.enqueue(piece.subarray(0, n));
    },
  });
}

const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, async () => {
    try {
      const r = await fetch(url, {
        method: 'POST',
        duplex: 'half',
        body: paced(),
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': String(total) },
      });
      return { status: r.status, body: await r.text() };
    } catch (error) {
      return { status: 0, error: error?.cause?.code ?? String(error) };
    }
  }),
);
process.stdout.write(JSON.stringify(outcomes));
