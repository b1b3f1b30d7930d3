// A hostile visitor in a process of its own (so the test's own event loop measures the victims, not the
// flood): joins a room with its meeting token and sends frames as fast as the socket takes them.
// Usage: node flooder.mjs <conversation_url> <meeting_token> <kind: audio|hifi|rates|chat|echo|echo-interrupt|zero-cost> <count>
// Closed for flooding, it joins again with the same meeting token until all is sent. Prints one JSON line
// when done: { sent, closeCode (of the last connection), closeCodes (of each), sessions }.
// zero-cost: binary frames that carry no audio (a 9-byte kind-2 frame, an 8-byte kind-1 frame, reserved
// bytes set, no samples), from a visitor that stops reading once joined (what the room answers piles up).
import WebSocket from 'ws';

const [url, token, kind, countText] = process.argv.slice(2);
const count = Number(countText);
const socketUrl = url.replace(/^http/, 'ws');

function audio(rate) {
  const samples = rate / 50;
  const bytes = Buffer.alloc(8 + samples * 2);
  bytes.writeUInt8(2, 0); // microphone
  bytes.writeUInt32LE(rate, 4);
  for (let i = 0; i < samples; i++) bytes.writeInt16LE(Math.round(8000 * Math.sin(i / 3)), 8 + i * 2);
  return bytes;
}

/** Binary frames with no audio in them (issue 34). */
const ZERO_COST = [
  Buffer.from('02000000803E000000', 'hex'),
  Buffer.from('0100000080BB0000', 'hex'),
  (() => {
    const b = audio(16000);
    b.writeUInt16LE(1, 2);
    return b;
  })(),
  Buffer.from('02000000803E0000', 'hex'),
];

function frame(i) {
  switch (kind) {
    case 'zero-cost':
      return ZERO_COST[i % ZERO_COST.length];
    case 'audio':
      return audio(16000);
    case 'hifi': // the most bytes a second of microphone may take (96 kHz)
      return audio(96000);
    case 'rates':
      return audio(i % 2 ? 16000 : 8000);
    case 'chat':
      return JSON.stringify({
        type: 'app-message',
        data: { message_type: 'conversation', event_type: 'conversation.respond', properties: { text: `Flood ${i}` } },
      });
    case 'echo':
      return JSON.stringify({
        type: 'app-message',
        data: { message_type: 'conversation', event_type: 'conversation.echo', properties: { text: 'Echo flood. '.repeat(400) } },
      });
    case 'echo-interrupt':
      // Say something, cut it at once, say the next: each echo starts synthesis that the interrupt makes useless.
      return i % 2
        ? JSON.stringify({
            type: 'app-message',
            data: { message_type: 'conversation', event_type: 'conversation.interrupt', properties: {} },
          })
        : JSON.stringify({
            type: 'app-message',
            data: {
              message_type: 'conversation',
              event_type: 'conversation.echo',
              properties: { text: `Echo flood number ${i}, a sentence long enough to take a while. `.repeat(20) },
            },
          });
    default:
      throw new Error(`unknown flood kind ${kind}`);
  }
}

/** Joins, then sends until the room closes the connection or `count` frames are out; returns the close code. */
async function session() {
  const socket = new WebSocket(socketUrl);
  const closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('error', () => undefined);
  const opened = await new Promise((resolve) => {
    socket.once('open', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (!opened) return { joined: false, closeCode: await closed };
  socket.send(JSON.stringify({ type: 'join', meeting_token: token, user_name: 'Flooder' }));
  const joined = await new Promise((resolve) => {
    socket.on('message', (data, isBinary) => !isBinary && JSON.parse(data.toString()).type === 'joined' && resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (joined && kind === 'zero-cost') socket.pause();
  while (joined && sent < count && socket.readyState === WebSocket.OPEN) {
    // zero-cost frames are tiny: sent without waiting for each write (up to 1 MiB unwritten), as fast as the room reads.
    if (kind === 'zero-cost' && socket.bufferedAmount < 1 << 20) socket.send(frame(sent));
    else await new Promise((resolve) => socket.send(frame(sent), resolve));
    sent++;
  }
  socket.close();
  return { joined, closeCode: await closed };
}

// A persistent attacker: closed for flooding, it joins again with the same token, until all is sent.
let sent = 0;
let last = { joined: true, closeCode: null };
let sessions = 0;
const closeCodes = [];
while (sent < count && last.joined) {
  last = await session();
  closeCodes.push(last.closeCode);
  sessions++;
}
console.log(JSON.stringify({ sent, closeCode: last.closeCode, closeCodes, sessions }));
