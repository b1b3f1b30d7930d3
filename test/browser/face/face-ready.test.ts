// Issue 32: the PAL greets once the visitor sees its face. The page says it will tell the room (`join`'s
// face_ready) and sends `face-ready` once the `<video>` showing the face's track has its first frame and has
// reported the frames that tell the face how far ahead to ask (or, when no element of ours shows it, after a few
// frames drawn) — once, however many frames follow; a face that cannot be drawn (its rig does not load) is the
// still image shown, said too.
import { expect } from '@open-wc/testing';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { PalAudioPlayer } from '../../../src/palkit/client/transport/pal-audio.js';
import { TransportParticipantsEvent } from '../../../src/palkit/client/transport/transport.js';
import { show } from '../../../src/palkit/client/media/shown-tracks.js';
import { FRAME_SOURCE } from '../../../src/palkit/client/media/face/presentation.js';
import { pageEngine } from '../../../src/palkit/client/media/page-engine.js';
import { waitFor } from '../helpers/wait-for.js';
import { RoomSocket, greyRigFiles } from '../helpers/rig-stand-ins.js';

/** Counts the face's drawn frames (each reports itself to the voice's player). */
function countDraws(): { count(): number; restore(): void } {
  const original = PalAudioPlayer.prototype.drawn;
  let draws = 0;
  PalAudioPlayer.prototype.drawn = function (this: PalAudioPlayer, at: number) {
    draws++;
    return original.call(this, at);
  };
  return { count: () => draws, restore: () => (PalAudioPlayer.prototype.drawn = original) };
}

/**
 * A transport joined to a room whose PAL is `pal` (its track shown in `video`, as the stage does, when given);
 * what the page sent, and whether the face's track was out (and the <video> had its first frame) at each face-ready.
 */
async function call(pal: Record<string, unknown>, fetcher?: typeof fetch, video?: HTMLVideoElement) {
  let socket: RoomSocket | undefined;
  const transport = new LocalTransport({
    listen: false,
    ...(fetcher ? { fetch: fetcher } : {}),
    createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
  });
  if (video)
    transport.addEventListener(TransportParticipantsEvent.type, () => {
      const track = transport.participants.find((p) => p.role === 'pal')?.videoTrack;
      if (track && !video.srcObject) {
        show(video, new MediaStream([track]));
        void video.play().catch(() => undefined);
      }
    });
  const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
  await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
  const room = socket!;
  const trackOut: boolean[] = [];
  const videoReady: number[] = [];
  const send = room.send.bind(room);
  room.send = (data) => {
    if (typeof data === 'string' && JSON.parse(data).type === 'face-ready') {
      trackOut.push(transport.participants.find((p) => p.role === 'pal')?.videoTrack != null);
      if (video) videoReady.push(video.readyState);
    }
    send(data);
  };
  room.frame({
    type: 'joined',
    participant_id: 'v1',
    conversation_id: 'c1',
    participants: [{ participant_id: 'p1', user_name: 'Dana', role: 'pal', ...pal }],
  });
  await joined;
  const faceReady = () => room.sent.filter((f) => f.type === 'face-ready').length;
  return { transport, room, trackOut, videoReady, faceReady };
}

describe("face-ready: the page tells the room the PAL's face is shown", () => {
  let draws: ReturnType<typeof countDraws>;
  beforeEach(() => (draws = countDraws()));
  afterEach(() => draws.restore());

  for (const [name, pal] of [
    ['Ada', { face_model: 'palkit:ada' }],
    ['a trained face', { face_rig_url: '/faces/f1/rig.json' }],
  ] as const) {
    it(`${name}: says it will tell as it joins, and sends face-ready once, after a frame of the face's track is drawn`, async () => {
      const { transport, room, trackOut, faceReady } = await call(pal, (await greyRigFiles()).fetch);
      expect(room.sent[0]).to.include({ type: 'join', face_ready: true });
      await waitFor(() => faceReady() > 0, { what: 'face-ready' });
      expect(trackOut, "the face's track was out when it was sent").to.deep.equal([true]);
      const at = draws.count();
      await waitFor(() => draws.count() >= at + 5, { what: 'five more frames drawn' });
      expect(faceReady(), 'sent once, however many frames follow').to.equal(1);
      await transport.leave();
    });
  }

  it('a face shown in a <video>: face-ready once that <video> has its first frame, not before', async () => {
    const video = Object.assign(document.createElement('video'), { muted: true, autoplay: true, playsInline: true });
    document.body.append(video);
    try {
      const { transport, videoReady, faceReady } = await call({ face_model: 'palkit:ada' }, undefined, video);
      await waitFor(() => faceReady() > 0, { what: 'face-ready' });
      expect(videoReady.length).to.equal(1);
      expect(videoReady[0], 'the <video> had its first frame').to.be.at.least(HTMLMediaElement.HAVE_CURRENT_DATA);
      const at = draws.count();
      await waitFor(() => draws.count() >= at + 5, { what: 'five more frames drawn' });
      expect(faceReady()).to.equal(1);
      await transport.leave();
    } finally {
      video.remove();
    }
  });

  it('a face shown in a <video>: face-ready waits for the <video> to report the frames that tell the face how far ahead to ask', async () => {
    // The <video>'s frame reports (frame callbacks, or WebKitGTK's frame count) are held back until the test lets
    // them go: until then the face asks by its engine's default, and the PAL's first words would be drawn by it.
    const video = Object.assign(document.createElement('video'), { muted: true, autoplay: true, playsInline: true });
    document.body.append(video);
    let held = true;
    const heldBack: Array<() => void> = [];
    if (FRAME_SOURCE[pageEngine()] === 'frame count') {
      const real = video.getVideoPlaybackQuality.bind(video);
      let frozen: VideoPlaybackQuality | null = null;
      video.getVideoPlaybackQuality = () => (held ? (frozen ??= real()) : real());
    } else {
      const real = video.requestVideoFrameCallback.bind(video);
      video.requestVideoFrameCallback = (callback) => (held ? (heldBack.push(() => real(callback)), 0) : real(callback));
    }
    try {
      const { transport, faceReady } = await call({ face_model: 'palkit:ada' }, undefined, video);
      await waitFor(() => video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA, { what: "the <video>'s first frame" });
      const at = draws.count();
      await waitFor(() => draws.count() >= at + 5, { what: 'five more frames drawn (the drawing steady)' });
      expect(faceReady(), 'not while the <video> has reported no frames').to.equal(0);
      held = false;
      heldBack.splice(0).forEach((register) => register());
      await waitFor(() => faceReady() > 0, { what: 'face-ready once frames are reported' });
      await transport.leave();
    } finally {
      video.remove();
    }
  });

  it('a face whose rig does not load: face-ready once, as its still image is shown', async () => {
    const { transport, faceReady } = await call(
      { face_rig_url: '/faces/f1/rig.json', image_url: '/faces/f1/still.jpg' },
      (await greyRigFiles('not a rig')).fetch,
    );
    await waitFor(() => transport.participants.find((p) => p.role === 'pal')?.imageUrl != null && faceReady() > 0, { what: 'face-ready' });
    expect(faceReady()).to.equal(1);
    expect(draws.count(), 'nothing drawn').to.equal(0);
    await transport.leave();
  });

  it('a page that plays no voice draws no face and does not say it will tell', async () => {
    let socket: RoomSocket | undefined;
    const transport = new LocalTransport({
      listen: false,
      voice: false,
      createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket,
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 't', startVideo: false, startAudio: false });
    await waitFor(() => socket?.readyState === WebSocket.OPEN, { what: 'the socket open' });
    socket!.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [{ participant_id: 'p1', user_name: 'Dana', role: 'pal', face_model: 'palkit:ada' }],
    });
    await joined;
    expect(socket!.sent[0]!.type).to.equal('join');
    expect(socket!.sent[0]).to.not.have.property('face_ready');
    await transport.leave();
  });
});
