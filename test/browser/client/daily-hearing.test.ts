// The visitor's Daily page with palkit's runner as the PAL (transport/daily-hearing.ts): it tells the room
// in its userData whether it can recognise speech, starts its own recognition only when the runner says the
// service does not transcribe, sends what it recognises as the interactions protocol's user events, pauses
// while the PAL speaks, tells the runner when its recognition stops working, and where nothing can hear the
// visitor shows the same `hearing_unavailable` notice as a local room.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalConversation } from '../../../src/palkit/components/conversation/conversation.js';
import { ConversationSession } from '../../../src/palkit/client/session.js';
import { DailyTransport } from '../../../src/palkit/client/transport/daily.js';
import type { DailyHearingOptions } from '../../../src/palkit/client/transport/daily-hearing.js';
import { hearingMessage } from '../../../src/palkit/client/transport/hearing-message.js';
import { TransportMessageEvent, TransportNoticeEvent } from '../../../src/palkit/client/transport/transport.js';
import { FakeRecognition, withoutBrowserRecognition } from '../helpers/fake-recognition.js';
import { StandInDailyCall } from '../helpers/stand-in-daily-call.js';
import { deep } from '../helpers/deployment.js';
import { waitFor } from '../helpers/wait-for.js';

async function visitor(hearing: DailyHearingOptions | undefined) {
  let call!: StandInDailyCall;
  const transport = new DailyTransport({
    createCallObject: (options) => (call = new StandInDailyCall(options)),
    ...(hearing ? { hearing } : {}),
  });
  const messages: unknown[] = [];
  const notices: string[] = [];
  transport.addEventListener(TransportMessageEvent.type, (e) => messages.push((e as TransportMessageEvent).data));
  transport.addEventListener(TransportNoticeEvent.type, (e) => notices.push((e as TransportNoticeEvent).code));
  await transport.join({ url: 'https://acme.daily.co/r', token: 't', startVideo: false, startAudio: true });
  /** An app-message from the runner (the PAL's participant in the Daily room). */
  const fromPal = (data: unknown) => call.emit('app-message', { data, fromId: 'pal' });
  return { transport, call, messages, notices, fromPal };
}

const said = (call: StandInDailyCall) => call.sent.map(([data]) => (data as { event_type: string }).event_type);

describe('DailyTransport hears the visitor with the browser’s recognition (palkit runner, no service recogniser)', () => {
  it('sends a recognised phrase as the user events, pauses for the PAL, and tells the runner when recognition is lost', async () => {
    const recognition = new FakeRecognition();
    const { transport, call, messages, notices, fromPal } = await visitor({ createRecognition: () => recognition });
    expect(call.joinedWith?.userData).to.deep.equal({ palkit: { speech_recognition: true } });
    expect(recognition.running, 'nothing listens before the runner says the service does not').to.equal(false);

    fromPal(hearingMessage({ transcribes: false, language: 'de-DE' }, 'c7'));
    expect(messages, "palkit's own message is not handed on as the protocol's").to.deep.equal([]);
    expect(recognition).to.include({ running: true, lang: 'de-DE' });

    recognition.hear([['wann habt ihr', false]]);
    recognition.hear([['wann habt ihr offen', true]]);
    const utterance = {
      message_type: 'conversation',
      event_type: 'conversation.utterance',
      conversation_id: 'c7',
      properties: { role: 'user', speech: 'wann habt ihr offen' },
    };
    expect(said(call)).to.deep.equal([
      'conversation.user.started_speaking',
      'conversation.user.stopped_speaking',
      'conversation.utterance',
    ]);
    expect(call.sent[2]).to.deep.equal([utterance, '*']);
    expect(messages, "the visitor's own transcript shows the words").to.deep.include(utterance);

    // The PAL talks: recognition pauses, so it never answers itself; and listens again after.
    fromPal({ message_type: 'conversation', event_type: 'conversation.replica.started_speaking', properties: {} });
    expect(recognition.running).to.equal(false);
    fromPal({ message_type: 'conversation', event_type: 'conversation.replica.stopped_speaking', properties: {} });
    expect(recognition.running).to.equal(true);
    transport.setMicrophoneEnabled(false);
    expect(recognition.running, 'microphone off: not listening').to.equal(false);
    transport.setMicrophoneEnabled(true);

    recognition.fail('not-allowed');
    expect(call.sent.at(-1)).to.deep.equal([hearingMessage({ speech_recognition: false }, 'c7'), '*']);
    expect(notices).to.deep.equal(['hearing_unavailable']);
    await transport.leave();
  });

  it('leaves hearing to the service when the runner says it transcribes: no recognition, no notice', async () => {
    const recognition = new FakeRecognition();
    const { transport, call, notices, fromPal } = await visitor({ createRecognition: () => recognition });
    fromPal(hearingMessage({ transcribes: true }, 'c8'));
    expect(recognition.calls).to.deep.equal([]);
    expect(notices).to.deep.equal([]);
    expect(call.sent).to.deep.equal([]);
    await transport.leave();
  });

  it('where nothing can hear the visitor (no service recogniser, no browser recognition) shows hearing_unavailable', async () => {
    await withoutBrowserRecognition(async () => {
      const { transport, call, notices, fromPal } = await visitor(undefined);
      expect(call.joinedWith?.userData).to.deep.equal({ palkit: { speech_recognition: false } });
      expect(notices).to.deep.equal([]);
      fromPal(hearingMessage({ transcribes: false }, 'c9'));
      expect(notices).to.deep.equal(['hearing_unavailable']);
      await transport.leave();
    });
  });

  it('a room without palkit’s runner (a bring-your-own bot) gets no recognition and no notice', async () => {
    const recognition = new FakeRecognition();
    const { transport, notices, messages, fromPal } = await visitor({ createRecognition: () => recognition });
    fromPal({ message_type: 'conversation', event_type: 'conversation.replica.started_speaking', properties: {} });
    expect(recognition.calls).to.deep.equal([]);
    expect(notices).to.deep.equal([]);
    expect(messages).to.have.length(1);
    await transport.leave();
  });

  it('the visitor sees the notice in the call, as in a local room, when the runner says nothing else hears', async () => {
    await withoutBrowserRecognition(async () => {
      let call!: StandInDailyCall;
      const session = new ConversationSession({
        transportFactory: () => new DailyTransport({ createCallObject: (options) => (call = new StandInDailyCall(options)) }),
      });
      const el = document.createElement('pal-conversation') as PalConversation;
      el.session = session;
      await fixture(html`<div style="width:800px;height:520px"></div>`).then((d) => d.append(el));
      await session.join('https://acme.daily.co/c10', 'tok');
      expect(deep(el, '[part="notice"]')).to.equal(null);
      call.emit('app-message', { data: hearingMessage({ transcribes: false }, 'c10'), fromId: 'pal' });
      await waitFor(() => deep(el, '[part="notice"]') !== null, { what: 'the notice' });
      expect(deep(el, '[part="notice"]')!.textContent).to.contain("can't hear you in this browser. Type your message instead.");
      await session.endConversation();
    });
  });
});
