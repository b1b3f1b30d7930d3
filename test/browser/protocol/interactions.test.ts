import { expect } from '@open-wc/testing';
import {
  canvasComponentNames,
  isSafeHttpsUrl,
  isValidInteractionValue,
  newInteractionId,
  parseCanvasAction,
} from '../../../src/protocol/canvas.js';
import { clientMessage, parseClientMessage, parseInteraction, parsePalMessage, protocolStats } from '../../../src/protocol/interactions.js';

const env = (event_type: string, properties?: unknown, extra: object = {}) => ({
  message_type: 'conversation',
  event_type,
  conversation_id: 'c1',
  ...(properties === undefined ? {} : { properties }),
  ...extra,
});

describe('interactions protocol', () => {
  beforeEach(() => protocolStats.reset());

  it('accepts every PAL → client event and narrows by event_type', () => {
    const good = [
      env('conversation.utterance', { role: 'replica', speech: 'Hi' }, { inference_id: 'i1', seq: 3, turn_idx: 1 }),
      env('conversation.utterance.streaming', { role: 'replica', speech: 'H', final: false, content_index: 0 }),
      env('conversation.replica.started_speaking', {}),
      env('conversation.replica.stopped_speaking', { duration: 1.5, interrupted: false }),
      env('conversation.user.started_speaking'),
      env('conversation.user.stopped_speaking', {}),
      env('conversation.replica_interrupted', {}),
      env('conversation.tool_call', { name: 'canvas_clear', arguments: '{}', tool_call_id: 't1' }),
      env('conversation.disclosure', { visual_disclosure: 'AI', verbal_disclosure: 'I am an AI', state: 'delivering' }),
    ];
    for (const raw of good) expect(parsePalMessage(raw), raw.event_type).to.not.equal(null);
    const m = parseInteraction(good[0]);
    if (m?.event_type !== 'conversation.utterance') throw new Error('not narrowed');
    expect(m.properties.speech).to.equal('Hi');
    expect(m.turn_idx).to.equal(1);
    expect(protocolStats.ignored).to.equal(0);
  });

  it('accepts every client → PAL message and builds them with the envelope', () => {
    const good = [
      clientMessage('conversation.respond', { text: 'hello' }, 'c1'),
      clientMessage('conversation.echo', { text: 'say this' }),
      clientMessage('conversation.interrupt', {}),
      clientMessage('conversation.overwrite_llm_context', { context: 'new' }),
      clientMessage('conversation.append_llm_context', { context: 'more' }),
      clientMessage('conversation.sensitivity', { participant_pause_sensitivity: 'low', participant_interrupt_sensitivity: 'high' }),
      clientMessage('conversation.tool_result', { tool_call_id: 't1', output: { ok: true }, status: 'success' }),
    ];
    for (const raw of good) expect(parseClientMessage(raw), raw.event_type).to.not.equal(null);
    expect(good[0]).to.deep.equal({
      message_type: 'conversation',
      event_type: 'conversation.respond',
      conversation_id: 'c1',
      properties: { text: 'hello' },
    });
    expect(parsePalMessage(good[0])).to.equal(null);
    expect(protocolStats.ignored).to.equal(0);
  });

  it('ignores and counts unknown and malformed messages without throwing', () => {
    const bad: unknown[] = [
      null,
      'text',
      7,
      [],
      {},
      { event_type: 3 },
      env('conversation.utterance', { role: 'robot', speech: 'x' }),
      env('conversation.utterance', { role: 'user' }),
      env('conversation.utterance.streaming', { role: 'replica', speech: 'x' }),
      env('conversation.tool_call', { name: 'x', arguments: {}, tool_call_id: 't' }),
      env('conversation.disclosure', { visual_disclosure: 'x', verbal_disclosure: 'y', state: 'done' }),
      env('conversation.sensitivity', { participant_pause_sensitivity: 'extreme' }),
      env('conversation.respond', { text: '' }),
      { ...env('conversation.utterance', { role: 'user', speech: 'x' }), message_type: 'system' },
      env('conversation.something_new', {}),
    ];
    for (const raw of bad) expect(parseInteraction(raw)).to.equal(null);
    expect(protocolStats.ignored).to.equal(bad.length);
    expect(protocolStats.unknown).to.equal(1);
    expect(protocolStats.malformed).to.equal(bad.length - 1);
  });

  it('parses and counts one raw object once, however many parts read it', () => {
    const raw = env('conversation.nope', {});
    parseInteraction(raw);
    parsePalMessage(raw);
    parseInteraction(raw);
    expect(protocolStats.ignored).to.equal(1);
  });

  it('keeps unknown extra properties for listeners', () => {
    const m = parseInteraction(env('conversation.utterance', { role: 'user', speech: 'x', user_audio_analysis: 'calm' }));
    expect(m?.properties).to.deep.include({ user_audio_analysis: 'calm' });
  });
});

describe('magic canvas protocol', () => {
  const call = (name: string, args: unknown) => parseCanvasAction({ name, arguments: JSON.stringify(args), tool_call_id: 'tc' });

  it('knows the seven components and the control actions', () => {
    expect(canvasComponentNames).to.deep.equal(['question', 'input', 'calendar', 'scheduling_embed', 'text', 'chart', 'alert']);
    expect(call('canvas_clear', {})).to.deep.equal({ kind: 'clear', toolCallId: 'tc' });
    expect(call('update_component', { patch: { body: 'x' }, target_tool_call_id: 'a' })).to.deep.equal({
      kind: 'update',
      toolCallId: 'tc',
      patch: { body: 'x' },
      targetToolCallId: 'a',
    });
    expect(call('some_page_tool', {})).to.equal(null);
  });

  it('enforces the reference limits', () => {
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
    const kind = (name: string, args: unknown) => call(name, args)?.kind;
    expect(kind('canvas_show_question', { question: 'q', options: opts(2) })).to.equal('show');
    expect(kind('canvas_show_question', { question: 'q', options: opts(10) })).to.equal('show');
    expect(kind('canvas_show_question', { question: 'q', options: opts(11) })).to.equal('invalid');
    expect(
      kind('canvas_show_question', {
        question: 'q',
        options: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B' },
        ],
      }),
    ).to.equal('invalid');
    expect(kind('canvas_show_input', { prompt: 'x'.repeat(240), placeholder: 'y'.repeat(160) })).to.equal('show');
    expect(kind('canvas_show_input', { prompt: 'x', placeholder: 'y'.repeat(161) })).to.equal('invalid');
    expect(kind('canvas_show_input', { prompt: 'x', input_type: 'date' })).to.equal('invalid');
    expect(kind('canvas_show_calendar', { title: 'x'.repeat(121) })).to.equal('invalid');
    expect(kind('canvas_show_calendar', { title: 't', mode: 'date_time' })).to.equal('invalid');
    expect(kind('canvas_show_scheduling_embed', { scheduling_url: `https://calendly.com/${'a'.repeat(2030)}` })).to.equal('invalid');
    expect(kind('canvas_show_text', { body: 'x'.repeat(4000) })).to.equal('show');
    expect(kind('canvas_show_text', { body: 'x'.repeat(4001) })).to.equal('invalid');
    expect(kind('canvas_show_chart', { data: opts(12).map((o, i) => ({ label: o.label, value: i })) })).to.equal('show');
    expect(kind('canvas_show_chart', { data: opts(13).map((o, i) => ({ label: o.label, value: i })) })).to.equal('invalid');
    expect(kind('canvas_show_chart', { data: [] })).to.equal('invalid');
    expect(kind('canvas_show_chart', { data: [{ label: 'x'.repeat(81), value: 1 }] })).to.equal('invalid');
    expect(kind('canvas_show_alert', { body: 'x'.repeat(1200), auto_dismiss_seconds: 120 })).to.equal('show');
    expect(kind('canvas_show_alert', { body: 'x'.repeat(1201) })).to.equal('invalid');
    expect(kind('canvas_show_alert', { body: 'x', auto_dismiss_seconds: 121 })).to.equal('invalid');
    expect(kind('canvas_show_alert', { body: 'x', severity: 'fatal' })).to.equal('invalid');
  });

  it('accepts only public https scheduling URLs', () => {
    expect(isSafeHttpsUrl('https://calendly.com/acme/30min')).to.be.true;
    for (const url of [
      'http://calendly.com/a',
      'https://localhost/a',
      'https://127.0.0.1/a',
      'https://10.0.0.2/a',
      'https://169.254.169.254/latest',
      'https://192.168.0.1/',
      'https://[::1]/',
      'https://metadata.google.internal/',
      'javascript:alert(1)',
      'https://user:pw@calendly.com/',
    ])
      expect(isSafeHttpsUrl(url), url).to.be.false;
  });

  it('validates interaction values per component and type, and makes ids of the agreed form', () => {
    expect(isValidInteractionValue('canvas.question', 'submit', { selected_option_ids: ['a'], skipped: false })).to.be.true;
    expect(isValidInteractionValue('canvas.question', 'submit', { selected_option_ids: ['a'] })).to.be.false;
    expect(isValidInteractionValue('canvas.input', 'submit', { value: 3 })).to.be.true;
    expect(isValidInteractionValue('canvas.calendar', 'submit', { selected_range: { start: '2030-01-01', end: '2030-01-03' } })).to.be.true;
    expect(isValidInteractionValue('canvas.calendar', 'submit', { selected_date: 'tomorrow' })).to.be.false;
    expect(isValidInteractionValue('canvas.text', 'submit', {})).to.be.false;
    expect(isValidInteractionValue('canvas.text', 'dismiss', {})).to.be.true;
    const id = newInteractionId('x'.repeat(128), 'heartbeat');
    expect(id.length).to.be.at.most(128);
    expect(id).to.match(/^ci_x+_heartbeat_[0-9a-f-]{36}$/);
  });
});
