// palkit's runner page (client/runner/daily-pal-bridge.ts) against a stand-in daily-js call object that
// records what it is given, and a stand-in for the PAL's local room socket: the PAL joins Daily first,
// bridges into its local room only once a visitor is there (with the bridge token), gives daily-js the
// face's drawn track and the voice's track as its video and audio sources (live: the voice audible when
// the room sends the PAL's speech, the face's frames arriving), relays app-messages both ways, and ends
// the Daily call when the room ends.
import { expect } from '@open-wc/testing';
import type { DailyParticipant } from '@daily-co/daily-js';
import { ADA } from '../../../src/face-drawing/ada.js';
import { AudioFrameKind, encodeAudioFrame } from '../../../src/protocol/room.js';
import { DailyPalBridge } from '../../../src/palkit/client/runner/daily-pal-bridge.js';
import { DailyTransport } from '../../../src/palkit/client/transport/daily.js';
import { hearingMessage } from '../../../src/palkit/client/transport/hearing-message.js';
import { TransportNoticeEvent } from '../../../src/palkit/client/transport/transport.js';
import { FakeRecognition } from '../helpers/fake-recognition.js';
import { waitFor } from '../helpers/wait-for.js';
import { StandInDailyCall } from '../helpers/stand-in-daily-call.js';

class RoomSocket extends EventTarget {
  readyState: number = WebSocket.CONNECTING;
  binaryType = 'blob';
  sent: unknown[] = [];
  constructor(readonly url: string) {
    super();
    setTimeout(() => {
      this.readyState = WebSocket.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(data: string | Uint8Array): void {
    if (typeof data === 'string') this.sent.push(JSON.parse(data));
  }
  close(code = 1000): void {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
  frame(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
  audio(bytes: Uint8Array): void {
    this.dispatchEvent(new MessageEvent('message', { data: bytes.slice().buffer }));
  }
}

/** Listens to an audio track: the loudest sample of the last ~40 ms the analyser holds (0 to 1). */
async function listenTo(track: MediaStreamTrack) {
  const context = new AudioContext();
  await context.resume();
  const analyser = context.createAnalyser();
  context.createMediaStreamSource(new MediaStream([track])).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const peak = () => {
    analyser.getFloatTimeDomainData(samples);
    return samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
  };
  // The analyser holds a full window of what the track carried once the context has run that long.
  await waitFor(() => context.currentTime > 0.1, { what: 'the analyser running' });
  return { peak, close: () => context.close() };
}

/** 100 ms of a 440 Hz tone at half scale, as the room sends the PAL's voice. */
function toneFrame(): Uint8Array {
  const sampleRate = 16_000;
  const samples = new Int16Array(sampleRate / 10).map((_, i) => Math.round(16_000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)));
  return encodeAudioFrame({ kind: AudioFrameKind.palVoice, viseme: 1, sampleRate, samples });
}

/** A started bridge in Daily room `id`, its reports ignored: its stand-in call, and the PAL room's socket once opened. */
async function startBridge(id: string) {
  let call!: StandInDailyCall;
  let socket: RoomSocket | undefined;
  const bridge = new DailyPalBridge(
    {
      createCallObject: (options) => (call = new StandInDailyCall(options, false)),
      local: { createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket },
    },
    { joined: () => undefined, published: () => undefined, ended: () => undefined },
  );
  await bridge.start({
    dailyUrl: `https://acme.daily.co/${id}`,
    dailyToken: 't',
    palName: 'Ada',
    bridgeUrl: `http://pal.test/rooms/${id}`,
    bridgeToken: 'b',
  });
  return { bridge, call, socket: () => socket };
}

describe('DailyPalBridge (the runner page)', () => {
  it('joins Daily as the PAL, bridges once a visitor comes, publishes a live face and voice, relays both ways, ends with the room', async () => {
    let call!: StandInDailyCall;
    let socket: RoomSocket | undefined;
    const reports = { joined: 0, published: [] as string[], ended: [] as Array<[string, boolean]> };
    const bridge = new DailyPalBridge(
      {
        createCallObject: (options) => (call = new StandInDailyCall(options, false)),
        local: { listen: false, createSocket: (url) => (socket = new RoomSocket(url)) as unknown as WebSocket },
      },
      {
        joined: () => reports.joined++,
        published: (tracks) => reports.published.push(...tracks),
        ended: (reason, failed) => reports.ended.push([reason, failed]),
      },
    );
    await bridge.start({
      dailyUrl: 'https://acme.daily.co/c1',
      dailyToken: 'owner-token',
      palName: 'Ada',
      bridgeUrl: 'http://pal.test/rooms/c1',
      bridgeToken: 'bridge-token',
    });
    expect(call.joinedWith).to.deep.equal({ url: 'https://acme.daily.co/c1', token: 'owner-token', userName: 'Ada' });
    expect(call.options).to.include({ startVideoOff: true, startAudioOff: true, videoSource: false, audioSource: false });
    expect(reports.joined).to.equal(1);
    expect(socket, 'no PAL room before a visitor is there').to.equal(undefined);

    call.remote = { session_id: 'v1', user_name: 'Grace', local: false, tracks: {} } as unknown as DailyParticipant;
    call.emit('participant-joined', { participant: call.remote });
    await waitFor(() => socket?.sent.length, { what: 'the bridge joins the PAL room' });
    expect(socket!.url).to.equal('ws://pal.test/rooms/c1');
    expect(socket!.sent[0]).to.include({ type: 'join', meeting_token: 'bridge-token', user_name: 'Grace', face_ready: true });
    socket!.frame({
      type: 'joined',
      participant_id: 'b1',
      conversation_id: 'c1',
      participants: [
        { participant_id: 'p1', user_name: 'Ada', role: 'pal', face_model: ADA },
        { participant_id: 'b1', user_name: 'Grace', role: 'visitor' },
      ],
    });
    await waitFor(() => call.sources.videoSource && call.sources.audioSource, { what: 'face and voice given to daily-js' });
    expect(call.video && call.audio, 'both sources on').to.equal(true);
    expect([...reports.published].sort()).to.deep.equal(['audio', 'video']);
    const { videoSource, audioSource } = call.sources;
    expect([videoSource!.kind, videoSource!.readyState, audioSource!.kind, audioSource!.readyState]).to.deep.equal([
      'video',
      'live',
      'audio',
      'live',
    ]);

    // The face's track carries frames.
    const video = document.createElement('video');
    video.muted = true;
    video.srcObject = new MediaStream([videoSource!]);
    await video.play();
    await waitFor(() => video.videoWidth > 0, { what: "the face's frames" });

    // Silence while the PAL says nothing; its voice audible once the room sends it.
    const ear = await listenTo(audioSource!);
    expect(ear.peak()).to.be.below(0.01);
    for (let i = 0; i < 10; i++) socket!.audio(toneFrame());
    await waitFor(() => ear.peak() > 0.1, { timeout: 1500, what: "the PAL's voice on the published track" });
    await ear.close();

    // The visitor's app-message reaches the PAL room; the PAL's reaches everyone in the Daily room.
    call.emit('app-message', { data: { event_type: 'conversation.respond', properties: { text: 'hi' } }, fromId: 'v1' });
    expect(socket!.sent).to.deep.include({ type: 'app-message', data: { event_type: 'conversation.respond', properties: { text: 'hi' } } });
    socket!.frame({ type: 'app-message', from: 'p1', data: { event_type: 'conversation.utterance', properties: { role: 'replica' } } });
    expect(call.sent).to.deep.include([{ event_type: 'conversation.utterance', properties: { role: 'replica' } }, '*']);

    socket!.frame({ type: 'ended', reason: 'participant_left_timeout reached' });
    await waitFor(() => call.destroyed, { what: 'the Daily call left' });
    expect(call.left).to.equal(true);
    expect(reports.ended).to.deep.equal([['participant_left_timeout reached', false]]);
    video.srcObject = null;
  });

  it("tells the PAL room it has no recognition of its own: the visitor's track is heard by the service's only", async () => {
    const { bridge, call, socket } = await startBridge('c2');
    call.remote = { session_id: 'v1', user_name: 'Grace', local: false, tracks: {} } as unknown as DailyParticipant;
    call.emit('participant-joined', { participant: call.remote });
    await waitFor(() => socket()?.sent.length, { what: 'the bridge joins the PAL room' });
    expect(socket()!.sent[0]).to.include({ type: 'join', speech_recognition: false });
    await bridge.stop();
  });

  it("hears the visitor through their own page's recognition: tells the page, passes its words on, and the PAL room whether it can", async () => {
    const { bridge, call, socket } = await startBridge('c3');

    // The visitor's Daily page, joined through a second stand-in whose app-messages reach the bridge's and back.
    const recognition = new FakeRecognition();
    let visitorCall!: StandInDailyCall;
    const visitor = new DailyTransport({
      createCallObject: (options) => (visitorCall = new StandInDailyCall(options)),
      hearing: { createRecognition: () => recognition },
    });
    const notices: string[] = [];
    visitor.addEventListener(TransportNoticeEvent.type, (e) => notices.push((e as TransportNoticeEvent).code));
    await visitor.join({ url: 'https://acme.daily.co/c3', token: 'v', startVideo: false, startAudio: true });
    visitorCall.sendAppMessage = ((data: unknown) => call.emit('app-message', { data, fromId: 'v1' })) as never;
    call.sendAppMessage = ((data: unknown) => visitorCall.emit('app-message', { data, fromId: 'me' })) as never;

    // The visitor arrives with what its page said of itself: the PAL room learns it can hear them, before any greeting.
    call.remote = { session_id: 'v1', user_name: 'Grace', local: false, tracks: {}, userData: visitorCall.joinedWith?.userData } as never;
    call.emit('participant-joined', { participant: call.remote });
    await waitFor(() => socket()?.sent.length, { what: 'the bridge joins the PAL room' });
    expect(socket()!.sent[0]).to.include({ type: 'join', speech_recognition: true });

    // The room does not transcribe: the visitor's page is told, and listens in the PAL's language.
    socket()!.frame({
      type: 'joined',
      participant_id: 'b1',
      conversation_id: 'c3',
      transcribes: false,
      language: 'fr-FR',
      participants: [{ participant_id: 'b1', user_name: 'Grace', role: 'visitor' }],
    });
    await waitFor(() => recognition.running, { what: "the visitor's recognition listening" });
    expect(recognition.lang).to.equal('fr-FR');

    // A recognised phrase reaches the PAL room as a page's own recognition sends it.
    recognition.hear([['quelles sont vos heures', true]]);
    const appMessages = () =>
      socket()!
        .sent.filter((f) => (f as { type: string }).type === 'app-message')
        .map((f) => (f as { data: unknown }).data);
    expect(appMessages()).to.deep.equal([
      { message_type: 'conversation', event_type: 'conversation.user.started_speaking', conversation_id: 'c3', properties: {} },
      { message_type: 'conversation', event_type: 'conversation.user.stopped_speaking', conversation_id: 'c3', properties: {} },
      {
        message_type: 'conversation',
        event_type: 'conversation.utterance',
        conversation_id: 'c3',
        properties: { role: 'user', speech: 'quelles sont vos heures' },
      },
    ]);

    // Its recognition stops working: the PAL room gets a `hearing` frame, never palkit's message as an app-message.
    recognition.fail('service-not-allowed');
    expect(socket()!.sent.at(-1)).to.deep.equal({ type: 'hearing', speech_recognition: false });
    expect(appMessages()).to.have.length(3);
    expect(notices).to.deep.equal(['hearing_unavailable']);
    await visitor.leave();
    await bridge.stop();
  });

  it('tells a visitor page that joins again (a reload) how it is heard, and the PAL room whether it can be', async () => {
    const { bridge, call, socket } = await startBridge('c4');
    const visitorWith = (id: string, recognises: boolean) =>
      ({ session_id: id, user_name: 'Grace', local: false, tracks: {}, userData: { palkit: { speech_recognition: recognises } } }) as never;
    call.emit('participant-joined', { participant: visitorWith('v1', false) });
    await waitFor(() => socket()?.sent.length, { what: 'the bridge joins the PAL room' });
    expect(socket()!.sent[0]).to.include({ type: 'join', speech_recognition: false });
    socket()!.frame({ type: 'joined', participant_id: 'b1', conversation_id: 'c4', transcribes: true, participants: [] });
    await waitFor(() => call.sent.length, { what: 'the visitor page told' });
    expect(call.sent).to.deep.equal([[hearingMessage({ transcribes: true }, 'c4'), '*']]);

    call.emit('participant-joined', { participant: visitorWith('v2', true) });
    expect(socket()!.sent.at(-1)).to.deep.equal({ type: 'hearing', speech_recognition: true });
    expect(call.sent).to.have.length(2);
    await bridge.stop();
  });
});
