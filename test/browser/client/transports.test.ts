import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalStage } from '../../../src/palkit/components/stage/stage.js';
import { DailyTransport } from '../../../src/palkit/client/transport/daily.js';
import { browserRecognises } from '../../../src/palkit/client/transport/local-listener.js';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { ABANDON_AFTER_MS } from '../../../src/palkit/client/transport/room-connection.js';
import {
  TransportEndedEvent,
  TransportMessageEvent,
  TransportNoticeEvent,
  transportKindFor,
} from '../../../src/palkit/client/transport/transport.js';
import { waitFor } from '../helpers/wait-for.js';
import { TestClock } from '../helpers/test-clock.js';
import { participant, StandInDailyCall } from '../helpers/stand-in-daily-call.js';

/** WebSocket stand-in driven by the test (the room side). */
class FakeSocket extends EventTarget {
  readyState: number = WebSocket.CONNECTING;
  sent: unknown[] = [];
  constructor(readonly url: string) {
    super();
    setTimeout(() => {
      if (this.readyState !== WebSocket.CONNECTING) return;
      this.readyState = WebSocket.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000): void {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
  frame(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}

describe('transport choice', () => {
  it('uses daily for daily.co hosts and the local room otherwise', () => {
    expect(transportKindFor('https://acme.daily.co/room')).to.equal('daily');
    expect(transportKindFor('http://localhost:8787/rooms/c1')).to.equal('local');
    expect(transportKindFor('https://notdaily.co.evil.com/x')).to.equal('local');
  });
});

describe('LocalTransport', () => {
  function open() {
    let socket!: FakeSocket;
    const transport = new LocalTransport({
      voice: false,
      listen: false,
      createSocket: (url) => (socket = new FakeSocket(url)) as unknown as WebSocket,
      getUserMedia: () => navigator.mediaDevices.getUserMedia({ video: true }),
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 'secret', startVideo: true, startAudio: true });
    return { transport, joined, socket: () => socket };
  }

  it('joins with the token in the first frame, lists the PAL with its thumbnail, relays app-messages', async () => {
    const { transport, joined, socket } = open();
    await waitFor(() => socket()?.sent.length === 1, { what: 'join frame' });
    expect(socket().url).to.equal('wss://pal.test/rooms/c1');
    // The page's clock goes with the join, so the PAL says times in the visitor's zone and way.
    const page = {
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      locale: document.documentElement.lang || navigator.language,
    };
    expect(socket().sent[0]).to.deep.equal({ type: 'join', meeting_token: 'secret', ...page });
    expect(page.time_zone).to.be.a('string').and.not.equal('');
    socket().frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [
        { participant_id: 'p1', user_name: 'Ada', role: 'pal', video_url: '/face.mp4', image_url: '/face.jpg' },
        { participant_id: 'v1', user_name: 'Visitor', role: 'visitor' },
      ],
    });
    await joined;
    const pal = transport.participants.find((p) => p.role === 'pal')!;
    expect(pal).to.include({ id: 'p1', videoUrl: '/face.mp4', imageUrl: '/face.jpg' });
    await waitFor(() => transport.participants[0]!.videoTrack !== null, { what: 'self view' });
    const messages: unknown[] = [];
    transport.addEventListener(TransportMessageEvent.type, (e) => messages.push((e as TransportMessageEvent).data));
    socket().frame({ type: 'app-message', from: 'p1', data: { event_type: 'conversation.utterance' } });
    expect(messages).to.deep.equal([{ event_type: 'conversation.utterance' }]);
    // The room is pinged whenever it has been quiet a moment (this test runs on the page's clock): those aside,
    // what the visitor said goes out followed by a ping, whose answer will say the room read it.
    const before = socket().sent.length;
    transport.sendAppMessage({ event_type: 'conversation.respond', properties: { text: 'hi' } });
    expect(socket().sent.slice(before)).to.deep.equal([
      { type: 'app-message', data: { event_type: 'conversation.respond', properties: { text: 'hi' } } },
      { type: 'ping', n: (socket().sent.at(-1) as { n: number }).n },
    ]);
    await transport.leave();
    expect(socket().sent.at(-1)).to.deep.equal({ type: 'leave' });
  });

  it('rejects the join when the room refuses the token', async () => {
    const { joined, socket } = open();
    await waitFor(() => socket()?.sent.length === 1);
    socket().close(4401);
    try {
      await joined;
      throw new Error('joined');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('join_failed');
      expect((error as Error).message).to.contain('token');
    }
  });

  it('reports the room ending the call', async () => {
    const { transport, joined, socket } = open();
    await waitFor(() => socket()?.sent.length === 1);
    socket().frame({ type: 'joined', participant_id: 'v1', conversation_id: 'c1', participants: [] });
    await joined;
    const ended: TransportEndedEvent[] = [];
    transport.addEventListener(TransportEndedEvent.type, (e) => ended.push(e as TransportEndedEvent));
    socket().frame({ type: 'ended', reason: 'max_call_duration reached' });
    expect(ended.map((e) => [e.reason, e.failed])).to.deep.equal([['max_call_duration reached', false]]);
  });

  // WebKitGTK froze for good when a track a <video> still showed was stopped (haircheck-release.test.ts);
  // the call's self view shows the camera until the call ends.
  for (const ending of ['the room ends the call', 'the visitor leaves'] as const) {
    it(`lets the stage's self view go before it stops the camera, when ${ending}`, async () => {
      const { transport, joined, socket } = open();
      await waitFor(() => socket()?.sent.length === 1, { what: 'join frame' });
      socket().frame({ type: 'joined', participant_id: 'v1', conversation_id: 'c1', participants: [] });
      await joined;
      await waitFor(() => transport.participants[0]!.videoTrack !== null, { what: 'the camera' });
      const stage = await fixture<PalStage>(html`<pal-stage .participants=${transport.participants}></pal-stage>`);
      const selfView = () => stage.shadowRoot!.querySelector<HTMLVideoElement>('video.self');
      await waitFor(() => selfView()?.srcObject instanceof MediaStream, { what: 'the self view shows the camera' });
      const camera = transport.participants[0]!.videoTrack!;
      const shownAtStop: boolean[] = [];
      const stop = camera.stop.bind(camera);
      camera.stop = () => {
        shownAtStop.push(selfView()!.srcObject !== null);
        stop();
      };
      if (ending === 'the room ends the call') socket().frame({ type: 'ended', reason: 'ended' });
      else await transport.leave();
      expect(shownAtStop).to.deep.equal([false]);
      expect(camera.readyState).to.equal('ended');
    });
  }

  // The waits between tries run on the test's clock: each try comes when the test moves time past its backoff.
  describe('the room moving (its instance restarting, or another taking it over)', () => {
    /** Longer than any wait between two tries (at most 2 s) and than the 30 s the transport keeps trying. */
    const LONGER_THAN_ANY_WAIT = 31_000;
    function moving() {
      const sockets: FakeSocket[] = [];
      const clock = new TestClock();
      const transport = new LocalTransport({
        voice: false,
        listen: false,
        timers: clock,
        createSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)! as unknown as WebSocket),
      });
      const notices: string[] = [];
      const ended: Array<[string, boolean]> = [];
      transport.addEventListener(TransportNoticeEvent.type, (e) => notices.push((e as TransportNoticeEvent).code));
      transport.addEventListener(TransportEndedEvent.type, (e) =>
        ended.push([(e as TransportEndedEvent).reason, (e as TransportEndedEvent).failed]),
      );
      const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 'secret', startVideo: false, startAudio: false });
      /** The nth socket's join frame, answered with `joined` (a PAL of this id in the room). */
      const admit = async (n: number, pal: string) => {
        await waitFor(() => sockets[n]?.sent.length === 1, { what: `join frame on socket ${n + 1}` });
        sockets[n]!.frame({
          type: 'joined',
          participant_id: `v${n}`,
          conversation_id: 'c1',
          participants: [{ participant_id: pal, user_name: 'Ada', role: 'pal' }],
        });
      };
      return { transport, sockets, notices, ended, joined, admit, clock };
    }

    it('joins again with the same token and the call goes on; the visitor is told only while it takes longer than a moment', async () => {
      const { transport, sockets, notices, ended, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      sockets[0]!.close(1012);
      await clock.drain();
      expect(sockets.length, 'the first try waits a moment (up to 0.25 s)').to.equal(1);
      await clock.advance(250);
      await admit(1, 'p2');
      expect(sockets[1]!.sent[0]).to.deep.include({ type: 'join', meeting_token: 'secret' });
      await waitFor(() => transport.participants.some((p) => p.id === 'p2'), { what: 'the room as joined again' });
      expect(transport.participants.map((p) => p.id)).to.deep.equal(['v1', 'p2']);
      expect(notices, 'a quick move goes unremarked').to.deep.equal([]);
      transport.sendAppMessage({ event_type: 'conversation.respond', properties: { text: 'still here?' } });
      expect(sockets[1]!.sent[1]).to.deep.include({ type: 'app-message' });

      // The connection drops; the first try finds no one, and once no room has answered for a second the
      // visitor is told; the next try gets in.
      sockets[1]!.close(1006);
      await clock.advance(250);
      await waitFor(() => sockets.length === 3, { what: 'a first try' });
      sockets[2]!.close(1006);
      await clock.advance(500); // the second try waits up to twice as long
      expect(notices, 'less than a second without a room').to.deep.equal([]);
      await waitFor(() => sockets.length === 4, { what: 'a second try' });
      await clock.advance(500);
      expect(notices).to.deep.equal(['reconnecting']);
      await admit(3, 'p3');
      await waitFor(() => notices.length === 2, { what: 'the notices' });
      expect(notices).to.deep.equal(['reconnecting', 'reconnected']);
      // What the visitor typed before the drop was never confirmed read (no answer to its ping): sent again.
      await waitFor(() => sockets[3]!.sent.length >= 2, { what: 'what was typed, sent again' });
      expect(sockets[3]!.sent.slice(1)).to.deep.equal([
        { type: 'app-message', data: { event_type: 'conversation.respond', properties: { text: 'still here?' } } },
        { type: 'ping', n: 2 },
      ]);
      expect(ended).to.deep.equal([]);
      await transport.leave();
    });

    it('an open socket behind which no room answers: pinged, "reconnecting" within a second, given up after 5 s; what was typed reaches the next room once', async () => {
      const { transport, sockets, notices, ended, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      const pong = (n: number) => sockets[0]!.frame({ type: 'pong', n });
      // A room that answers: quiet for a moment, it is pinged, and its answer keeps the visitor unbothered.
      await clock.advance(400);
      expect(sockets[0]!.sent.slice(1)).to.deep.equal([{ type: 'ping', n: 1 }]);
      pong(1);
      await clock.advance(700);
      const pings = () => sockets[0]!.sent.filter((f) => (f as { type: string }).type === 'ping') as Array<{ n: number }>;
      expect(pings().length, 'pinged again while quiet').to.equal(2);
      pong(pings().at(-1)!.n);
      expect(notices).to.deep.equal([]);
      // Its holder dies: the socket stays open, nothing answers. A question typed now is kept.
      const answeredAt = clock.now();
      transport.sendAppMessage({ event_type: 'conversation.respond', properties: { text: 'are you there?' } });
      while (!notices.length) await clock.advance(100);
      expect(clock.now() - answeredAt, '"reconnecting" within a second of the last answer').to.be.within(800, 1_000);
      expect(sockets.length, 'the socket is still open: no try yet').to.equal(1);
      await clock.advance(ABANDON_AFTER_MS);
      expect(sockets.length, 'given up after 5 s without an answer, and the room joined again').to.be.at.least(2);
      await admit(1, 'p2');
      await waitFor(() => notices.length === 2, { what: 'back' });
      expect(notices).to.deep.equal(['reconnecting', 'reconnected']);
      const typed = { type: 'app-message', data: { event_type: 'conversation.respond', properties: { text: 'are you there?' } } };
      await waitFor(() => sockets[1]!.sent.length >= 3, { what: 'the question, sent again' });
      const n = (sockets[1]!.sent[2] as { n: number }).n;
      expect(sockets[1]!.sent.slice(1)).to.deep.equal([typed, { type: 'ping', n }]);
      // The new room answers the ping: the question was read, and is not sent again after another move.
      sockets[1]!.frame({ type: 'pong', n });
      sockets[1]!.close(1012);
      await clock.advance(250);
      await admit(2, 'p3');
      await clock.drain();
      expect(sockets[2]!.sent.filter((f) => (f as { type: string }).type === 'app-message')).to.deep.equal([]);
      expect(ended).to.deep.equal([]);
      await transport.leave();
    });

    it('a page that stalls for longer than the room may be silent keeps its socket: the stall is not the room going quiet', async () => {
      const { transport, sockets, notices, ended, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      // A frozen tab or a starved process: no timer runs for 6 s, then the watch runs before the room's queued frames.
      await clock.leap(ABANDON_AFTER_MS + 1_000);
      expect(sockets.length, 'no new socket').to.equal(1);
      expect(notices, "the visitor is not told of a stall that was the page's").to.deep.equal([]);
      sockets[0]!.frame({ type: 'pong', n: 0 });
      await clock.advance(2_000);
      expect(sockets.length).to.equal(1);
      // A room that stays silent once the page runs again is still given up, ABANDON_AFTER_MS later.
      await clock.advance(ABANDON_AFTER_MS);
      expect(sockets.length, 'given up when the room, not the page, is silent').to.be.at.least(2);
      expect(ended).to.deep.equal([]);
      await transport.leave();
    });

    it('keeps at most 32 lines while no room answers, the oldest dropped', async () => {
      const { transport, sockets, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      sockets[0]!.close(1006);
      for (let i = 0; i < 40; i++) transport.sendAppMessage({ event_type: 'conversation.respond', properties: { text: `line ${i}` } });
      await clock.advance(250);
      await admit(1, 'p2');
      await waitFor(() => sockets[1]!.sent.length >= 34, { what: 'the kept lines' });
      const lines = sockets[1]!.sent.flatMap((f) =>
        (f as { type: string }).type === 'app-message' ? [(f as { data: { properties: { text: string } } }).data.properties.text] : [],
      );
      expect(lines).to.deep.equal(Array.from({ length: 32 }, (_, i) => `line ${i + 8}`));
      await transport.leave();
    });

    it('ends the call when the room says it ended meanwhile; ends it as lost when the room refuses', async () => {
      for (const [code, end] of [
        [4410, ['ended', false]],
        [4401, ['connection lost', true]],
      ] as const) {
        const { sockets, ended, joined, admit, clock } = moving();
        await admit(0, 'p1');
        await joined;
        sockets[0]!.close(1012);
        await clock.advance(250);
        await waitFor(() => sockets[1]?.sent.length === 1, { what: 'a try' });
        sockets[1]!.close(code);
        await waitFor(() => ended.length === 1, { what: `the end after ${code}` });
        expect(ended).to.deep.equal([end]);
        await clock.advance(LONGER_THAN_ANY_WAIT);
        expect(sockets.length, 'no more tries').to.equal(2);
      }
    });

    it('a socket closed for another reason (replaced by another window) ends the call, without trying again', async () => {
      const { sockets, ended, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      sockets[0]!.close(4409);
      expect(ended).to.deep.equal([['connection lost', true]]);
      await clock.advance(LONGER_THAN_ANY_WAIT);
      expect(sockets.length).to.equal(1);
    });

    it('gives up, as lost, when the room stays out of reach for 30 s', async () => {
      const { sockets, ended, notices, joined, admit, clock } = moving();
      await admit(0, 'p1');
      await joined;
      const droppedAt = clock.now();
      sockets[0]!.close(1006);
      // Every try finds no one; the tries go on, 2 s apart at most, until 30 s have passed.
      for (let tries = 1; ended.length === 0; tries++) {
        expect(tries, 'tries before giving up').to.be.at.most(20);
        await clock.advance(2_000);
        expect(sockets.length, `try ${tries}`).to.equal(tries + 1);
        sockets.at(-1)!.close(1006);
        await clock.drain();
      }
      expect(ended).to.deep.equal([['connection lost', true]]);
      expect(notices).to.deep.equal(['reconnecting']);
      expect(clock.now() - droppedAt, 'about 30 s of trying').to.be.within(30_000, 34_000);
    });
  });

  it('tells the room when the visitor switches to text and back, and joins in text mode when asked', async () => {
    const { transport, joined, socket } = open();
    await waitFor(() => socket()?.sent.length === 1);
    socket().frame({ type: 'joined', participant_id: 'v1', conversation_id: 'c1', participants: [] });
    await joined;
    transport.setTextMode(true);
    transport.setTextMode(true);
    transport.setTextMode(false);
    expect(socket().sent.slice(1)).to.deep.equal([
      { type: 'text-mode', on: true },
      { type: 'text-mode', on: false },
    ]);

    let second!: FakeSocket;
    const texting = new LocalTransport({
      voice: false,
      listen: false,
      createSocket: (url) => (second = new FakeSocket(url)) as unknown as WebSocket,
    });
    const joining = texting.join({
      url: 'https://pal.test/rooms/c1',
      token: 'secret',
      startVideo: false,
      startAudio: false,
      textMode: true,
    });
    await waitFor(() => second?.sent.length === 1);
    second.frame({ type: 'joined', participant_id: 'v2', conversation_id: 'c1', participants: [] });
    await joining;
    expect(second.sent).to.deep.equal([
      {
        type: 'join',
        meeting_token: 'secret',
        text_mode: true,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        locale: document.documentElement.lang || navigator.language,
      },
    ]);
  });

  // The posting interval runs on the test's clock; capturing and encoding a frame take real time, so each
  // "no frame" check first waits for what a frame already under way would have needed (encodedAsLong).
  it('posts a JPEG of the camera with the meeting token while a perceiving PAL asks, only while the camera is on, and stops when refused', async () => {
    const clock = new TestClock();
    const posts: Array<{ url: string; headers: Record<string, string>; body: Blob }> = [];
    let status = 200;
    const fetchFrame = (async (url: string, init: RequestInit) => {
      posts.push({ url, headers: init.headers as Record<string, string>, body: init.body as Blob });
      return new Response('{}', { status });
    }) as unknown as typeof fetch;
    let socket!: FakeSocket;
    const transport = new LocalTransport({
      voice: false,
      listen: false,
      timers: clock,
      fetch: fetchFrame,
      createSocket: (url) => (socket = new FakeSocket(url)) as unknown as WebSocket,
      getUserMedia: () => navigator.mediaDevices.getUserMedia({ video: true }),
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c1', token: 'tok-1', startVideo: true, startAudio: false });
    await waitFor(() => socket?.sent.length === 1);
    socket.frame({
      type: 'joined',
      participant_id: 'v1',
      conversation_id: 'c1',
      participants: [],
      perception: { frames_url: 'https://pal.test/v2/conversations/c1/frames', interval_ms: 1000 },
    });
    await joined;
    await waitFor(() => transport.participants[0]!.videoTrack !== null, { what: 'the camera' });
    await clock.advance(1000);
    await waitFor(() => posts.length >= 1, { what: 'the first frame' });
    const [first] = posts;
    expect(first!.url).to.equal('https://pal.test/v2/conversations/c1/frames');
    expect(first!.headers).to.deep.equal({ 'content-type': 'image/jpeg', authorization: 'Bearer tok-1' });
    const bytes = new Uint8Array(await first!.body.arrayBuffer());
    expect([...bytes.slice(0, 3)]).to.deep.equal([0xff, 0xd8, 0xff]);
    const image = await createImageBitmap(first!.body);
    expect(image.width).to.be.at.most(512).and.greaterThan(0);

    /** Waits as long as capturing and encoding one more frame takes (a frame a tick started would be posted by then). */
    const encodedAsLong = async () => {
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.7));
      await clock.drain();
    };

    transport.setCameraEnabled(false);
    const whileOff = posts.length;
    await clock.advance(3000);
    await encodedAsLong();
    expect(posts.length).to.equal(whileOff, 'no frames while the camera is off');
    transport.setCameraEnabled(true);
    status = 410;
    await clock.advance(1000);
    await waitFor(() => posts.length > whileOff, { what: 'a frame once the camera is on again' });
    const refusedAt = posts.length;
    await clock.advance(3000);
    await encodedAsLong();
    expect(posts.length).to.equal(refusedAt, 'the conversation ended: no more frames');
    await transport.leave();
  });
});

describe('DailyTransport', () => {
  it('joins in call-object mode with avoidEval, relays app-messages both ways, switches devices, exposes remote tracks', async () => {
    let call!: StandInDailyCall;
    const transport = new DailyTransport({ createCallObject: (options) => (call = new StandInDailyCall(options)) });
    await transport.join({ url: 'https://acme.daily.co/r', token: 't', startVideo: false, startAudio: true, audioDeviceId: 'mic-2' });
    expect(call.options.dailyConfig?.avoidEval).to.equal(true);
    expect(call.options).to.include({ startVideoOff: true, startAudioOff: false, audioSource: 'mic-2' });
    // Whether this browser recognises speech goes with the join (palkit's runner tells the PAL: daily-hearing.test.ts).
    const userData = { palkit: { speech_recognition: browserRecognises() } };
    expect(call.joinedWith).to.deep.equal({ url: 'https://acme.daily.co/r', token: 't', userData });
    const messages: unknown[] = [];
    transport.addEventListener(TransportMessageEvent.type, (e) => messages.push((e as TransportMessageEvent).data));
    call.emit('app-message', { data: { event_type: 'conversation.tool_call' }, fromId: 'pal' });
    expect(messages).to.deep.equal([{ event_type: 'conversation.tool_call' }]);
    transport.sendAppMessage({ event_type: 'conversation.echo' });
    expect(call.sent).to.deep.equal([[{ event_type: 'conversation.echo' }, '*']]);
    transport.setMicrophoneEnabled(false);
    transport.setCameraEnabled(true);
    await transport.setInputDevices({ videoDeviceId: 'cam-3' });
    expect([call.audio, call.video, call.devices]).to.deep.equal([false, true, { videoDeviceId: 'cam-3' }]);
    const stream = await navigator.mediaDevices.getUserMedia({ video: true });
    call.remote = participant('pal-1', false, stream.getVideoTracks()[0]);
    call.emit('track-started', {});
    expect(transport.participants.find((p) => !p.local)!.videoTrack).to.equal(stream.getVideoTracks()[0]);
    const ended: TransportEndedEvent[] = [];
    transport.addEventListener(TransportEndedEvent.type, (e) => ended.push(e as TransportEndedEvent));
    call.emit('left-meeting', {});
    expect(ended).to.have.length(1);
    expect(call.destroyed).to.equal(true);
    stream.getTracks().forEach((t) => t.stop());
  });

  it('destroys the call object and rejects when joining fails', async () => {
    let call!: StandInDailyCall;
    const transport = new DailyTransport({
      createCallObject: (options) => {
        call = new StandInDailyCall(options);
        call.join = async () => {
          throw new Error('room expired');
        };
        return call;
      },
    });
    try {
      await transport.join({ url: 'https://acme.daily.co/r', token: 't', startVideo: true, startAudio: true });
      throw new Error('joined');
    } catch (error) {
      expect((error as { code: string }).code).to.equal('join_failed');
    }
    expect(call.destroyed).to.equal(true);
  });
});
