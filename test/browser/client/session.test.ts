import { expect } from '@open-wc/testing';
import { ApiClient } from '../../../src/palkit/client/api.js';
import { LinkMessageEvent } from '../../../src/palkit/client/link.js';
import { thisPageLoad } from '../../../src/palkit/client/live-call.js';
import { ConversationSession, type SessionSettings } from '../../../src/palkit/client/session.js';
import {
  SessionErrorEvent,
  SessionLifecycleEvent,
  SessionModeEvent,
  SessionStateEvent,
} from '../../../src/palkit/client/session-events.js';
import { initBody, scriptedFetch, startBody } from '../../../stories/support/endpoints.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { nextTurn, waitFor } from '../helpers/wait-for.js';

/**
 * A few turns of the event loop: what a session started on fakes does without a timer is done after them.
 * Message turns, not timers: a chain of zero timers is slowed to 4 ms a link, more on a busy machine.
 */
const drain = async () => {
  for (let i = 0; i < 10; i++) await nextTurn();
};

function setup(
  routes: Parameters<typeof scriptedFetch>[0],
  settings: Partial<SessionSettings> = {},
  prepare: (t: StandInTransport) => void = () => {},
  tab = { keepStorage: false },
) {
  const { fetch, calls } = scriptedFetch(routes);
  // Each test is a fresh tab (no live call left to rejoin), unless it stands for a reload of the same tab.
  if (!tab.keepStorage) sessionStorage.clear();
  const transports: StandInTransport[] = [];
  const session = new ConversationSession({
    api: new ApiClient({ apiBase: 'http://pal.test', fetch }),
    deploymentId: 'd123',
    transportFactory: () => {
      const t = new StandInTransport();
      prepare(t);
      transports.push(t);
      return t;
    },
    settings: () => ({ showHaircheck: false, cameraOn: true, startBody: () => ({ custom_greeting: 'Hi' }), ...settings }),
  });
  const states: string[] = [];
  const modes: string[] = [];
  const lifecycle: string[] = [];
  const errors: string[] = [];
  session.addEventListener(SessionStateEvent.type, (e) => states.push((e as SessionStateEvent).state));
  session.addEventListener(SessionModeEvent.type, (e) => modes.push((e as SessionModeEvent).mode));
  session.addEventListener(SessionLifecycleEvent.type, (e) =>
    lifecycle.push(`${(e as SessionLifecycleEvent).phase}:${(e as SessionLifecycleEvent).conversationId}`),
  );
  session.addEventListener(SessionErrorEvent.type, (e) => errors.push((e as SessionErrorEvent).error.code));
  return { session, calls, transports, states, modes, lifecycle, errors };
}

const ok = { '/init': { status: 200, body: initBody() }, '/start': { status: 200, body: startBody() } };

describe('ConversationSession', () => {
  it('walks idle → initializing → idle → connecting → connected → disconnecting → ended with modes idle → call → ended', async () => {
    const t = setup(ok);
    await t.session.initialize();
    expect(t.session.state).to.equal('idle');
    await t.session.startConversation();
    expect(t.session.state).to.equal('connected');
    expect(t.session.mode).to.equal('call');
    expect(t.transports[0]!.joined).to.include({ url: 'http://pal.test/rooms/c42', token: 'tok' });
    expect(t.calls[1]!.body).to.deep.equal({ custom_greeting: 'Hi', visitor_key: localStorage.getItem('palkit-visitor-key') });
    await t.session.endConversation();
    expect(t.states).to.deep.equal(['initializing', 'idle', 'connecting', 'connected', 'disconnecting', 'ended']);
    expect(t.modes).to.deep.equal(['call', 'ended']);
    expect(t.lifecycle).to.deep.equal(['ready:', 'started:c42', 'ended:c42']);
    expect(t.transports[0]!.left).to.equal(true);
  });

  it('rejoins the live call after a reload of the tab (a new session), and not once it was ended or the room is gone', async () => {
    const first = setup(ok);
    await first.session.initialize();
    await first.session.startConversation();
    first.session.dispose(); // the page goes away (reload): the call is left, not ended
    // While the page is the same one, another session of this deployment does not take the call over.
    const sibling = setup(ok, {}, () => {}, { keepStorage: true });
    await sibling.session.initialize();
    await drain(); // the recall would have joined by now: its work runs on promises and the scripted fetch
    expect(sibling.transports).to.have.length(0);
    thisPageLoad.id = `reload-${Math.random()}`;

    const reloaded = setup(ok, {}, () => {}, { keepStorage: true });
    await reloaded.session.initialize();
    await waitFor(() => reloaded.session.state === 'connected', { what: 'rejoined' });
    expect(reloaded.session.mode).to.equal('call');
    expect(reloaded.transports[0]!.joined).to.include({ url: 'http://pal.test/rooms/c42', token: 'tok' });
    expect(reloaded.calls.filter((c) => c.url.endsWith('/start'))).to.have.length(0, 'no new conversation');
    await reloaded.session.endConversation();

    const afterEnd = setup(ok, {}, () => {}, { keepStorage: true });
    await afterEnd.session.initialize();
    await drain(); // the recall would have joined by now: its work runs on promises and the scripted fetch
    expect(afterEnd.session.state).to.equal('idle');
    expect(afterEnd.transports).to.have.length(0);

    // A call whose room is gone by the time of the reload: back to the preview, quietly.
    const live = setup(ok);
    await live.session.initialize();
    await live.session.startConversation();
    live.session.dispose();
    thisPageLoad.id = `reload-${Math.random()}`;
    const gone = setup(ok, {}, (t) => (t.failJoin = new Error('room closed')), { keepStorage: true });
    await gone.session.initialize();
    await waitFor(() => gone.transports.length === 1 && gone.session.state === 'idle' && gone.session.mode === 'idle', {
      what: 'back to the preview',
    });
    expect(gone.errors).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0, 'forgotten');
  });

  it('starts one conversation when started twice', async () => {
    const t = setup(ok);
    await t.session.initialize();
    await Promise.all([t.session.startConversation(), t.session.startConversation()]);
    await t.session.startConversation(); // during a live call: nothing
    expect(t.calls.filter((c) => c.url.endsWith('/start'))).to.have.length(1);
    expect(t.transports).to.have.length(1);
  });

  it('goes to unavailable with the reason from init', async () => {
    const t = setup({ '/init': { status: 200, body: initBody({ is_available: false, unavailable_reason: 'daily_limit' }) } });
    await t.session.initialize();
    expect(t.session.mode).to.equal('unavailable');
    expect(t.session.unavailableReason).to.equal('daily_limit');
    expect(t.errors).to.deep.equal(['daily_limit'], 'the page hears why');
  });

  it('reports an inactive deployment from init as deployment_inactive', async () => {
    const t = setup({ '/init': { status: 200, body: initBody({ is_available: false, unavailable_reason: 'inactive' }) } });
    await t.session.initialize();
    expect(t.session.mode).to.equal('unavailable');
    expect(t.errors).to.deep.equal(['deployment_inactive']);
  });

  it('turns a busy start into error + unavailable', async () => {
    const t = setup({ ...ok, '/start': { status: 429, body: { error: 'busy' }, headers: { 'retry-after': '30' } } });
    await t.session.initialize();
    await t.session.startConversation();
    expect(t.errors).to.deep.equal(['busy']);
    expect(t.session.state).to.equal('error');
    expect(t.session.mode).to.equal('unavailable');
    expect(t.session.unavailableReason).to.equal('busy');
  });

  it('checks the password at the gate, stays there when it is wrong, starts with the pass, and asks again when the pass runs out', async () => {
    let checks = 0;
    let starts = 0;
    const t = setup({
      '/init': { status: 200, body: initBody({ has_password: true }) },
      '/gate': () =>
        ++checks === 1
          ? { status: 403, body: { error: 'invalid_password' } }
          : { status: 200, body: { gate_pass: `pass-${checks}`, expires_at: '2030-01-01T00:00:00Z' } },
      // The first pass is refused at start (it ran out meanwhile): back to the password step.
      '/start': () => (++starts === 1 ? { status: 403, body: { error: 'password_required' } } : { status: 200, body: startBody() }),
    });
    await t.session.initialize();
    const started = t.session.startConversation();
    await waitFor(() => t.session.gate === 'password', { what: 'password gate' });
    t.session.submitPassword('wrong');
    await waitFor(() => t.session.gateError?.code === 'invalid_password', { what: 'gate error' });
    expect(t.session.gate).to.equal('password');
    expect(t.session.gateChecking).to.equal(false);
    expect(t.calls.filter((c) => c.url.endsWith('/start'))).to.have.length(0);
    t.session.submitPassword('secret');
    await waitFor(() => t.session.gateError?.code === 'password_required', { what: 'the pass was refused' });
    await waitFor(() => t.session.gate === 'password', { what: 'asked again' });
    t.session.submitPassword('secret');
    await started;
    expect(t.session.state).to.equal('connected');
    expect(t.calls.filter((c) => c.url.endsWith('/gate')).map((c) => c.body)).to.deep.equal([
      { password: 'wrong' },
      { password: 'secret' },
      { password: 'secret' },
    ]);
    expect(t.calls.filter((c) => c.url.endsWith('/start')).map((c) => (c.body as { gate_pass?: string }).gate_pass)).to.deep.equal([
      'pass-2',
      'pass-3',
    ]);
  });

  it('waits in the captcha step and sends the token', async () => {
    const t = setup({
      '/init': { status: 200, body: initBody({ captcha: { provider: 'turnstile', site_key: 'k' } }) },
      '/start': ok['/start'],
    });
    await t.session.initialize();
    const started = t.session.startConversation();
    await waitFor(() => t.session.gate === 'captcha');
    t.session.submitCaptcha('tt');
    await started;
    expect((t.calls[1]!.body as { captcha_token: string }).captcha_token).to.equal('tt');
  });

  it('goes unavailable when the bot check cannot run', async () => {
    const t = setup({ '/init': { status: 200, body: initBody({ captcha: { provider: 'turnstile', site_key: 'k' } }) } });
    await t.session.initialize();
    const started = t.session.startConversation();
    await waitFor(() => t.session.gate === 'captcha');
    t.session.captchaUnavailable();
    await started;
    expect(t.session.mode).to.equal('unavailable');
    expect(t.errors).to.deep.equal(['captcha_unavailable']);
  });

  it('stops in haircheck mode until confirmed, and end cancels it without a conversation', async () => {
    const t = setup(ok, { showHaircheck: true });
    await t.session.initialize();
    const started = t.session.startConversation();
    await waitFor(() => t.session.mode === 'haircheck');
    await t.session.endConversation();
    await started;
    expect(t.session.mode).to.equal('idle');
    expect(t.session.state).to.equal('idle');
    expect(t.calls.filter((c) => c.url.endsWith('/start'))).to.have.length(0);
    expect(t.lifecycle).to.deep.equal(['ready:']);
    const again = t.session.startConversation();
    await waitFor(() => t.session.mode === 'haircheck');
    t.session.confirmHaircheck({ cameraOn: false, audioDeviceId: 'mic-2' });
    await again;
    expect(t.transports[0]!.joined).to.include({ startVideo: false, audioDeviceId: 'mic-2' });
  });

  it('end cancels a pending start while connecting, without errors or an ended event', async () => {
    const t = setup(ok, {}, (f) => (f.holdJoin = true));
    await t.session.initialize();
    const started = t.session.startConversation();
    await waitFor(() => t.transports[0]?.joined !== null && t.transports.length === 1);
    expect(t.session.state).to.equal('connecting');
    await t.session.endConversation();
    t.transports[0]!.releaseJoin();
    await started;
    expect(t.session.state).to.equal('idle');
    expect(t.errors).to.deep.equal([]);
    expect(t.lifecycle).to.deep.equal(['ready:']);
  });

  it('createConversation creates without joining; start then joins that conversation', async () => {
    const t = setup(ok);
    await t.session.initialize();
    const created = await t.session.createConversation();
    expect(created).to.deep.equal({ conversationId: 'c42' });
    expect(t.transports).to.have.length(0);
    await t.session.startConversation();
    expect(t.calls.filter((c) => c.url.endsWith('/start'))).to.have.length(1);
    expect(t.lifecycle).to.deep.equal(['ready:', 'created:c42', 'started:c42']);
  });

  it('reports network and join failures as error state with codes', async () => {
    const t = setup({ '/init': new TypeError('Failed to fetch') });
    await t.session.initialize();
    expect(t.session.state).to.equal('error');
    expect(t.errors).to.deep.equal(['network_error']);
    const j = setup(ok, {}, (f) => (f.failJoin = new Error('nope')));
    await j.session.initialize();
    await j.session.startConversation();
    expect(j.errors).to.deep.equal(['join_failed']);
    expect(j.session.state).to.equal('error');
    expect(j.transports[0]!.left).to.equal(true);
  });

  it('relays room app-messages as LinkMessageEvent and sends through the transport', async () => {
    const t = setup(ok);
    await t.session.initialize();
    await t.session.startConversation();
    const seen: unknown[] = [];
    t.session.addEventListener(LinkMessageEvent.type, (e) => seen.push((e as LinkMessageEvent).message));
    t.transports[0]!.receive({ event_type: 'conversation.utterance', properties: { role: 'replica', speech: 'Hello' } });
    expect(seen).to.have.length(1);
    t.session.send({ event_type: 'conversation.respond', properties: { text: 'hi' } });
    expect(t.transports[0]!.sent[0]).to.deep.include({
      message_type: 'conversation',
      conversation_id: 'c42',
      event_type: 'conversation.respond',
    });
    t.session.setMicrophone(false);
    t.session.setCamera(false);
    await t.session.setDevices({ videoDeviceId: 'cam-2' });
    expect(t.transports[0]).to.include({ mic: false, camera: false });
    expect(t.transports[0]!.devices).to.deep.equal({ videoDeviceId: 'cam-2' });
  });

  it('ends when the room ends the call, and reports a lost connection', async () => {
    const t = setup(ok);
    await t.session.initialize();
    await t.session.startConversation();
    t.transports[0]!.endFromRoom(true);
    expect(t.session.mode).to.equal('ended');
    expect(t.errors).to.deep.equal(['connection_lost']);
    expect(t.lifecycle.at(-1)).to.equal('ended:c42');
  });

  it('joins a given room without a deployment', async () => {
    const transports: StandInTransport[] = [];
    const session = new ConversationSession({
      transportFactory: () => {
        const f = new StandInTransport();
        transports.push(f);
        return f;
      },
    });
    await session.join('http://pal.test/rooms/c9', 'tok9');
    expect(session.conversationId).to.equal('c9');
    expect(session.mode).to.equal('call');
    session.dispose();
    await nextTurn();
    expect(transports[0]!.left).to.equal(true);
  });

  it('sending outside a call throws not_connected', () => {
    const t = setup(ok);
    expect(() => t.session.send({ event_type: 'conversation.respond' }))
      .to.throw()
      .with.property('code', 'not_connected');
  });
});
