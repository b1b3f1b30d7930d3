import { expect } from '@open-wc/testing';
import { LocalListener, type HeardMessage } from '../../../src/palkit/client/transport/local-listener.js';
import { LocalTransport } from '../../../src/palkit/client/transport/local.js';
import { TransportMessageEvent, TransportNoticeEvent } from '../../../src/palkit/client/transport/transport.js';
import { waitFor } from '../helpers/wait-for.js';
import { TestClock } from '../helpers/test-clock.js';
import { FakeRecognition } from '../helpers/fake-recognition.js';

describe('LocalListener (the visitor heard through speech recognition)', () => {
  function listener() {
    const recognition = new FakeRecognition();
    const heard: HeardMessage[] = [];
    const clock = new TestClock();
    const l = new LocalListener((m) => heard.push(m), { create: () => recognition, lang: 'de-DE', timers: clock });
    return { recognition, heard, l, clock, events: () => heard.map((m) => m.event_type) };
  }

  it('listens continuously, in the given language, only while the microphone is on', () => {
    const { recognition, l } = listener();
    expect(recognition).to.include({ continuous: true, interimResults: true, lang: 'de-DE' });
    expect(recognition.running).to.equal(false);
    l.setMicrophone(true);
    expect(recognition.running).to.equal(true);
    l.setMicrophone(false);
    expect(recognition.calls).to.deep.equal(['start', 'stop']);
    expect(recognition.running).to.equal(false);
  });

  it('turns interim and final results into started_speaking, stopped_speaking and the user utterance', () => {
    const { recognition, l, heard, events } = listener();
    l.setMicrophone(true);
    recognition.hear([['what are', false]]);
    recognition.hear([['what are your opening', false]]);
    expect(events()).to.deep.equal(['conversation.user.started_speaking']);
    recognition.hear([[' what are your opening hours ', true]]);
    expect(events()).to.deep.equal(['conversation.user.started_speaking', 'conversation.user.stopped_speaking', 'conversation.utterance']);
    expect(heard[2]).to.deep.equal({
      message_type: 'conversation',
      event_type: 'conversation.utterance',
      properties: { role: 'user', speech: 'what are your opening hours' },
    });
    // The next turn: only the new result (resultIndex 1) counts; silence produces nothing.
    recognition.hear(
      [
        ['what are your opening hours', true],
        ['  ', false],
      ],
      1,
    );
    recognition.hear(
      [
        ['what are your opening hours', true],
        ['thanks', true],
      ],
      1,
    );
    expect(events().slice(3)).to.deep.equal([
      'conversation.user.started_speaking',
      'conversation.user.stopped_speaking',
      'conversation.utterance',
    ]);
    expect(heard.at(-1)!.properties).to.deep.equal({ role: 'user', speech: 'thanks' });
  });

  it('pauses while the PAL is audible and listens again when it falls silent', () => {
    const { recognition, l } = listener();
    l.setMicrophone(true);
    l.setPalSpeaking(true);
    expect(recognition.running).to.equal(false);
    l.setPalSpeaking(false);
    expect(recognition.running).to.equal(true);
    expect(recognition.calls).to.deep.equal(['start', 'stop', 'start']);
  });

  it('starts again after recognition ends by itself, but not after a fatal error', async () => {
    const { recognition, l, clock } = listener();
    l.setMicrophone(true);
    recognition.end(); // Chrome ends a session after a silence
    await clock.advance(299);
    expect(recognition.running, 'not at once').to.equal(false);
    await clock.advance(1);
    expect(recognition.running, 'restarted after 0.3 s').to.equal(true);
    expect(l.available).to.equal(true);
    recognition.fail('not-allowed'); // the visitor refused the microphone to recognition
    await clock.advance(10_000);
    expect(recognition.running).to.equal(false);
    expect(l.available).to.equal(false);
    l.setMicrophone(false);
    l.setMicrophone(true);
    expect(recognition.running).to.equal(false);
  });

  it('does nothing where the browser has no recognition', () => {
    const heard: HeardMessage[] = [];
    const l = new LocalListener((m) => heard.push(m), { create: () => null });
    l.setMicrophone(true);
    expect(l.available).to.equal(false);
    expect(heard).to.deep.equal([]);
  });
});

describe('LocalTransport with speech recognition', () => {
  it('sends what the visitor said to the room with the conversation id and shows it in this page too', async () => {
    const recognition = new FakeRecognition();
    let socket!: EventTarget & { readyState: number; sent: unknown[]; url: string };
    const transport = new LocalTransport({
      voice: false,
      createRecognition: () => recognition,
      getUserMedia: () => Promise.reject(new DOMException('no microphone here', 'NotFoundError')),
      createSocket: (url) => {
        const s = Object.assign(new EventTarget(), {
          readyState: WebSocket.CONNECTING as number,
          sent: [] as unknown[],
          url,
          send(data: string) {
            s.sent.push(JSON.parse(data));
          },
          close() {},
        });
        setTimeout(() => {
          s.readyState = WebSocket.OPEN;
          s.dispatchEvent(new Event('open'));
        });
        return (socket = s) as unknown as WebSocket;
      },
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c42', token: 't', startVideo: false, startAudio: true });
    await waitFor(() => socket?.sent.length === 1, { what: 'join frame' });
    expect(socket.sent[0], 'the page says it can hear').to.include({ type: 'join', speech_recognition: true });
    expect(recognition.running, 'not before the room admitted the visitor').to.equal(false);
    socket.dispatchEvent(
      new MessageEvent('message', {
        data: JSON.stringify({ type: 'joined', participant_id: 'v1', conversation_id: 'c42', participants: [] }),
      }),
    );
    await joined;
    expect(recognition.running).to.equal(true);

    const local: unknown[] = [];
    transport.addEventListener(TransportMessageEvent.type, (e) => local.push((e as TransportMessageEvent).data));
    recognition.hear([['hello there', true]]);
    const utterance = {
      message_type: 'conversation',
      event_type: 'conversation.utterance',
      properties: { role: 'user', speech: 'hello there' },
      conversation_id: 'c42',
    };
    expect(socket.sent.filter((f) => (f as { type: string }).type !== 'ping').at(-1)).to.deep.equal({
      type: 'app-message',
      data: utterance,
    });
    expect(local.at(-1)).to.deep.equal(utterance);

    transport.setMicrophoneEnabled(false);
    expect(recognition.running).to.equal(false);
    transport.setMicrophoneEnabled(true);
    expect(recognition.running).to.equal(true);
    await transport.leave();
    expect(recognition.running).to.equal(false);
  });
});

describe('LocalTransport tells the room whether this browser recognises speech (issue 54)', () => {
  async function joinFrame(options: { listen?: boolean }): Promise<Record<string, unknown>> {
    let socket!: EventTarget & { readyState: number; sent: Record<string, unknown>[]; url: string };
    const transport = new LocalTransport({
      voice: false,
      ...options,
      getUserMedia: () => Promise.reject(new DOMException('no microphone here', 'NotFoundError')),
      createSocket: (url) => {
        const s = Object.assign(new EventTarget(), {
          readyState: WebSocket.CONNECTING as number,
          sent: [] as Record<string, unknown>[],
          url,
          send(data: string) {
            s.sent.push(JSON.parse(data));
          },
          close() {},
        });
        setTimeout(() => {
          s.readyState = WebSocket.OPEN;
          s.dispatchEvent(new Event('open'));
        });
        return (socket = s) as unknown as WebSocket;
      },
    });
    void transport.join({ url: 'https://pal.test/rooms/c43', token: 't', startVideo: false, startAudio: false });
    await waitFor(() => socket?.sent.length === 1, { what: 'join frame' });
    await transport.leave();
    return socket.sent[0]!;
  }

  it('no recognition in the browser: speech_recognition false, so the PAL offers no speech', async () => {
    const scope = window as unknown as Record<string, unknown>;
    const saved = ['SpeechRecognition', 'webkitSpeechRecognition'].map(
      (name) => [name, Object.getOwnPropertyDescriptor(window, name)] as const,
    );
    for (const [name] of saved) Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
    try {
      expect(scope.webkitSpeechRecognition).to.equal(undefined);
      expect(await joinFrame({})).to.include({ type: 'join', speech_recognition: false });
    } finally {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(window, name, descriptor);
        else delete scope[name];
      }
    }
  });

  it('a page that does not listen says nothing of it', async () => {
    expect(await joinFrame({ listen: false })).to.not.have.property('speech_recognition');
  });
});

describe('LocalListener pauses while the PAL speaks', () => {
  it('stops recognising while the PAL talks and listens again after', () => {
    const recognition = new FakeRecognition();
    const l = new LocalListener(() => undefined, { create: () => recognition });
    l.setMicrophone(true);
    expect(recognition.running).to.equal(true);
    l.setPalSpeaking(true);
    expect(recognition.running).to.equal(false);
    l.setPalSpeaking(false);
    expect(recognition.running).to.equal(true);
  });
});

describe('LocalTransport never leaves the visitor in silence after they spoke (issue 25, item 1)', () => {
  async function joinedTransport(expectWordsMs = 150) {
    const recognition = new FakeRecognition();
    const clock = new TestClock();
    let socket!: EventTarget & { readyState: number; sent: unknown[] };
    const transport = new LocalTransport({
      voice: false,
      expectWordsMs,
      timers: clock,
      createRecognition: () => recognition,
      getUserMedia: () => Promise.reject(new DOMException('no microphone here', 'NotFoundError')),
      createSocket: () => {
        // The room answers its pings (room-connection.ts), as a live one does: the visitor is never told "reconnecting".
        const s = Object.assign(new EventTarget(), {
          readyState: WebSocket.CONNECTING as number,
          sent: [] as unknown[],
          close() {},
          send(data: string) {
            const frame = JSON.parse(data) as { type: string; n?: number };
            if (frame.type === 'ping')
              return void queueMicrotask(() =>
                s.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ type: 'pong', n: frame.n }) })),
              );
            s.sent.push(frame);
          },
        });
        setTimeout(() => {
          s.readyState = WebSocket.OPEN;
          s.dispatchEvent(new Event('open'));
        });
        return (socket = s) as unknown as WebSocket;
      },
    });
    const notices: string[] = [];
    // The microphone's own notice (no device in this stand-in) is not what these tests are about.
    transport.addEventListener(TransportNoticeEvent.type, (e) => {
      const { code } = e as TransportNoticeEvent;
      if (code !== 'microphone_unavailable') notices.push(code);
    });
    const joined = transport.join({ url: 'https://pal.test/rooms/c42', token: 't', startVideo: false, startAudio: true });
    await waitFor(() => socket?.sent.length === 1, { what: 'join frame' });
    const room = (data: object) => socket.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
    room({ type: 'joined', participant_id: 'v1', conversation_id: 'c42', participants: [] });
    await joined;
    const pal = (event_type: string, properties: object = {}) =>
      room({ type: 'app-message', from: 'pal', data: { message_type: 'conversation', event_type, conversation_id: 'c42', properties } });
    return { recognition, transport, notices, pal, clock, sent: () => socket.sent };
  }

  it('says the PAL did not catch it when the visitor cut the PAL off and recognition gives no words', async () => {
    const { recognition, transport, notices, pal } = await joinedTransport();
    pal('conversation.replica.started_speaking');
    expect(recognition.running).to.equal(false);
    // The room heard the visitor speak over the PAL and cut it off; recognition was paused meanwhile.
    pal('conversation.replica.stopped_speaking', { interrupted: true, duration: 1 });
    expect(recognition.running).to.equal(true);
    recognition.fail('no-speech');
    await waitFor(() => notices.length > 0, { what: 'a notice' });
    expect(notices).to.deep.equal(['not_heard']);
    await transport.leave();
  });

  it('says so when nothing at all comes back from recognition after the cut-off', async () => {
    const { notices, pal, transport, clock } = await joinedTransport(100);
    pal('conversation.replica.started_speaking');
    pal('conversation.replica.stopped_speaking', { interrupted: true, duration: 1 });
    await clock.advance(99);
    expect(notices, 'not before the wait for words runs out').to.deep.equal([]);
    await clock.advance(1);
    expect(notices).to.deep.equal(['not_heard']);
    await transport.leave();
  });

  it('says so when a turn began but recognition ended without a final result', async () => {
    const { recognition, notices, transport } = await joinedTransport();
    recognition.hear([['what are', false]]);
    recognition.end();
    expect(notices).to.deep.equal(['not_heard']);
    await transport.leave();
  });

  it('tells the visitor to type when recognition stops working mid-call, and the room that the PAL cannot hear', async () => {
    const { recognition, notices, transport, sent } = await joinedTransport();
    recognition.fail('network');
    expect(notices).to.deep.equal(['hearing_unavailable']);
    expect(sent()).to.deep.include({ type: 'hearing', speech_recognition: false });
    await transport.leave();
  });

  it('stays quiet when the words did arrive', async () => {
    const { recognition, notices, pal, transport, clock } = await joinedTransport(100);
    pal('conversation.replica.started_speaking');
    pal('conversation.replica.stopped_speaking', { interrupted: true, duration: 1 });
    recognition.hear([['opening hours please', true]]);
    await clock.advance(10_000);
    expect(notices).to.deep.equal([]);
    await transport.leave();
  });

  it('stays quiet when a typed line is what cut the PAL off', async () => {
    const { notices, pal, transport, clock } = await joinedTransport(100);
    pal('conversation.replica.started_speaking');
    transport.sendAppMessage({ message_type: 'conversation', event_type: 'conversation.respond', properties: { text: 'hi' } });
    pal('conversation.replica.stopped_speaking', { interrupted: true, duration: 1 });
    await clock.advance(10_000);
    expect(notices).to.deep.equal([]);
    await transport.leave();
  });
});
