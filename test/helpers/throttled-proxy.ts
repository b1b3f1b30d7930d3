// A TCP proxy whose upstream direction (client to server) carries at most `bytesPerSecond` on each
// connection: a slow link between a service instance and its database, which a test cannot get from a
// loopback PostgreSQL otherwise. The downstream direction is not slowed. Bytes pass through unchanged.
import { createServer, connect, type Socket } from 'node:net';

export interface ThrottledProxy {
  port: number;
  close(): Promise<void>;
}

const TICK_MS = 10;
/** A client's bytes held here before the proxy stops reading from it (TCP then holds the rest). */
const HELD_BYTES = 64 * 1024;

export async function startThrottledProxy(target: { host: string; port: number }, bytesPerSecond: number): Promise<ThrottledProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const held: Buffer[] = [];
    let heldBytes = 0;
    const perTick = Math.max(1, Math.round((bytesPerSecond * TICK_MS) / 1000));
    const timer = setInterval(() => {
      let allowance = perTick;
      while (allowance > 0 && held.length) {
        const chunk = held[0]!;
        const part = chunk.length <= allowance ? chunk : chunk.subarray(0, allowance);
        upstream.write(part);
        allowance -= part.length;
        heldBytes -= part.length;
        if (part === chunk) held.shift();
        else held[0] = chunk.subarray(part.length);
      }
      if (heldBytes < HELD_BYTES && client.isPaused()) client.resume();
    }, TICK_MS);
    client.on('data', (chunk: Buffer) => {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= HELD_BYTES) client.pause();
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      clearInterval(timer);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
