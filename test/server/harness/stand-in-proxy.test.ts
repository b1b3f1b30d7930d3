// The stand-in internet MiniBrowser is given in tests (test/helpers/engines.mjs, startStandInProxy): its
// close() ends every tunnel it opened, whatever state it is in. WebKit once opened a tunnel to a
// third-party host and never began TLS in it; close() then waited for the TLS server's own 120 s handshake
// timeout, and the browser suite's WebKit run with it (126 s in CI for 54 s of tests).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { startStandInProxy } from '../../helpers/engines.mjs';

/** A CONNECT tunnel through the proxy to `host`, open and answered, with nothing sent through it yet. */
async function tunnel(proxyUrl: string, host: string): Promise<Socket> {
  const { hostname, port } = new URL(proxyUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(`CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`);
  const [answer] = await once(socket, 'data');
  assert.match(String(answer), /^HTTP\/1\.1 200 /);
  return socket;
}

describe('the stand-in proxy', () => {
  it('closes with a tunnel whose TLS handshake never began, and ends that tunnel', { timeout: 5000 }, async () => {
    const proxy = await startStandInProxy();
    const idle = await tunnel(proxy.url, 'calendly.com');
    const ended = once(idle, 'close');
    await proxy.close();
    await ended;
    assert.equal(idle.destroyed, true);
  });

  // Kept alive, a connection is no longer the HTTP server's to end once close() ends every socket itself.
  it('closes with a plain HTTP connection kept alive after its answer', { timeout: 5000 }, async () => {
    const proxy = await startStandInProxy();
    const { hostname, port } = new URL(proxy.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.write('GET http://example.com/page HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n');
    const [answer] = await once(socket, 'data');
    assert.match(String(answer), /Stand-in for example\.com/);
    assert.deepEqual(proxy.requests, ['http://example.com/page']);
    const ended = once(socket, 'close');
    await proxy.close();
    await ended;
  });
});
