// A trained face's rig is asked for the moment the call names the face, while the renderer's code is still
// arriving (issue 32: in WebKit the face's first frame reached the <video> 1–2 s after the greeting began).
import { expect } from '@open-wc/testing';
import type { FaceRig } from '../../../src/protocol/faces/rig.js';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { prefetchRig } from '../../../src/palkit/client/transport/pal-face.js';
import { waitFor } from '../helpers/wait-for.js';
import { RoomSocket, greyRigFiles } from '../helpers/rig-stand-ins.js';

describe("a trained face's rig, fetched ahead", () => {
  it("is asked for as the joined room names the face, before the renderer's code has arrived, each file once", async () => {
    const { fetch, asked } = await greyRigFiles();
    let socket: RoomSocket | undefined;
    const transport = new LocalTransport({
      listen: false,
      fetch,
      createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
    await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
    socket!.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [{ participant_id: 'p1', user_name: 'Dana', role: 'pal', face_rig_url: '/faces/f1/rig.json' }],
    });
    // No await in between: the renderer's import() has not resolved yet, and the rig is already on its way.
    expect(asked, 'rig.json asked for with the joined frame').to.deep.equal(['/faces/f1/rig.json']);
    await joined;
    await waitFor(() => transport.participants.find((p) => p.role === 'pal')?.videoTrack != null, { what: "the face's track" });
    expect([...asked].sort(), "each of the rig's files fetched once").to.deep.equal([
      '/faces/f1/idle.png',
      '/faces/f1/rig.json',
      '/faces/f1/sheets/mouths.png',
    ]);
    await transport.leave();
  });

  it("is asked for as the start's answer names the face, before the room does, each file once", async () => {
    const { fetch, asked } = await greyRigFiles();
    let socket: RoomSocket | undefined;
    const transport = new LocalTransport({
      listen: false,
      fetch,
      createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
    });
    const joined = transport.join({
      url: 'https://pal.test/rooms/c1',
      token: 't',
      startVideo: false,
      startAudio: false,
      faceRigUrl: '/faces/f1/rig.json',
    });
    expect(asked, 'rig.json asked for as the join begins, before the socket is open').to.deep.equal(['/faces/f1/rig.json']);
    await waitFor(() => asked.length === 3, { what: 'the two sheets asked for, before the room names the face' });
    await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
    socket!.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [{ participant_id: 'p1', user_name: 'Dana', role: 'pal', face_rig_url: '/faces/f1/rig.json' }],
    });
    await joined;
    await waitFor(() => transport.participants.find((p) => p.role === 'pal')?.videoTrack != null, { what: "the face's track" });
    expect([...asked].sort(), "each of the rig's files fetched once").to.deep.equal([
      '/faces/f1/idle.png',
      '/faces/f1/rig.json',
      '/faces/f1/sheets/mouths.png',
    ]);
    await transport.leave();
  });

  it('fetches the sheets rig.json names as soon as it is read, and hands every reader its own body', async () => {
    const { fetch, asked } = await greyRigFiles();
    const prefetched = prefetchRig('/faces/f1/rig.json', fetch);
    await waitFor(() => asked.length === 3, { what: 'the two sheets asked for' });
    expect(asked.slice(1).sort()).to.deep.equal(['/faces/f1/idle.png', '/faces/f1/sheets/mouths.png']);
    const first = (await (await prefetched('/faces/f1/rig.json')).json()) as FaceRig;
    const second = (await (await prefetched('/faces/f1/rig.json')).json()) as FaceRig;
    expect(first.idle.url).to.equal('idle.png');
    expect(second).to.deep.equal(first);
    expect((await (await prefetched(new URL('/faces/f1/idle.png', location.href).href)).blob()).type).to.equal('image/png');
    expect(asked, 'nothing fetched twice').to.have.length(3);
    expect((await prefetched('/faces/f1/other.json')).status, 'anything else fetched as asked').to.equal(404);
    expect(asked).to.have.length(4);
  });
});
