// The local PAL: joins with the visitor, discloses by the rules, greets, answers (echo, language model,
// knowledge and memories), streams paced replies that an interrupt can cut, shows canvas cards.
import assert from 'node:assert/strict';
import { waitFor } from '../../../helpers/wait-for.js';
import { after, before, describe, it } from 'node:test';
import { BUILT_IN_VERBAL_DISCLOSURE, BUILT_IN_VISUAL_DISCLOSURE } from '../../../../src/server/live/agent/disclosure.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import {
  insertConversation,
  insertFace,
  insertPal,
  RoomClient,
  startCallbackReceiver,
  type CallbackReceiver,
} from '../../../helpers/live-fixtures.js';

describe('the local PAL', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let llm: FakeLlm;
  let echoPal: string;
  let faceId: string;
  before(async () => {
    // 600 words a minute: 100 ms a word, slow enough to interrupt, quick enough for tests.
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '600', PALKIT_ROOM_POLL_MS: '200' });
    receiver = await startCallbackReceiver();
    llm = await startFakeLlm();
    faceId = await insertFace(t, { imageUrl: 'https://cdn.example/face.jpg' });
    echoPal = await insertPal(t, { pipelineMode: 'echo', faceId });
  });
  after(async () => {
    await t.close();
    await receiver.close();
    await llm.close();
  });

  /** Points the service at the fake model for the duration of `fn`. */
  async function withLlm(fn: () => Promise<void>): Promise<void> {
    const config = t.service.deps.config.llm as { baseUrl: string | undefined; apiKey: string | undefined };
    config.baseUrl = llm.baseUrl;
    config.apiKey = 'sk-test';
    try {
      await fn();
    } finally {
      config.baseUrl = undefined;
      config.apiKey = undefined;
    }
  }

  const replica = (speech: string) => (m: { properties: Record<string, any> }) =>
    m.properties.role === 'replica' && m.properties.speech === speech;

  it('joins with the visitor, sends pal_joined then replica_joined, and streams its greeting', async () => {
    const room = await insertConversation(t, { palId: echoPal, callbackUrl: receiver.url, customGreeting: 'Welcome to the demo today.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', replica('Welcome to the demo today.'));
    const kinds = client.messages().map((m) => m.event_type);
    assert.deepEqual(kinds, [
      'conversation.replica.started_speaking',
      ...Array(5).fill('conversation.utterance.streaming'),
      'conversation.utterance.streaming',
      'conversation.utterance',
      'conversation.replica.stopped_speaking',
    ]);
    const streaming = client.events('conversation.utterance.streaming');
    assert.deepEqual(
      streaming.map((m) => m.properties.speech),
      ['Welcome', 'Welcome to', 'Welcome to the', 'Welcome to the demo', 'Welcome to the demo today.', 'Welcome to the demo today.'],
    );
    assert.deepEqual(
      streaming.map((m) => m.properties.final),
      [false, false, false, false, false, true],
    );
    assert.deepEqual(
      streaming.map((m) => m.properties.content_index),
      [0, 1, 2, 3, 4, 5],
    );
    const seqs = client.messages().map((m) => m.seq!);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    assert.ok(client.messages().every((m) => m.message_type === 'conversation' && m.conversation_id === room.conversationId));
    const stopped = client.events('conversation.replica.stopped_speaking')[0]!;
    assert.equal(stopped.properties.interrupted, false);
    assert.ok(stopped.properties.duration >= 0.4, `paced: ${stopped.properties.duration}s for five words`);
    await receiver.waitFor((b) => b.filter((x) => x.conversation_id === room.conversationId).length >= 2);
    const mine = receiver.bodies.filter((x) => x.conversation_id === room.conversationId);
    assert.deepEqual(
      mine.map((b) => b.event_type),
      ['system.pal_joined', 'system.replica_joined'],
    );
    assert.deepEqual(mine[0]!.properties, { face_id: faceId });
    assert.deepEqual(mine[1]!.properties, mine[0]!.properties);
    assert.equal(mine[0]!.message_type, 'system');
    assert.equal(mine[0]!.webhook_url, receiver.url);
    client.close();
  });

  it('echo PALs repeat conversation.respond, after announcing the user utterance', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    client.say('conversation.respond', { text: 'repeat after me' });
    const answer = await client.waitForEvent('conversation.utterance', replica('repeat after me'));
    const user = client.events('conversation.utterance').find((m) => m.properties.role === 'user')!;
    assert.equal(user.properties.speech, 'repeat after me');
    assert.equal(user.turn_idx, 1);
    assert.equal(answer.turn_idx, 1);
    assert.equal(answer.inference_id, user.inference_id);
    client.say('conversation.echo', { text: 'said verbatim' });
    await client.waitForEvent('conversation.utterance', replica('said verbatim'));
    client.close();
  });

  it('in text mode writes each reply at once, sentence by sentence, with no audio; back in voice mode it speaks again', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    client.send({ type: 'text-mode', on: true });
    const sentAt = performance.now();
    const reply = 'This is a longer reply of two sentences. It would take seconds to say at six hundred words a minute.';
    client.say('conversation.respond', { text: reply });
    const answer = await client.waitForEvent('conversation.utterance', replica(reply));
    const written = performance.now() - sentAt;
    const streamed = client.events('conversation.utterance.streaming').filter((m) => m.inference_id === answer.inference_id);
    // Whole sentences, not word by word as the voice would caption them.
    assert.deepEqual(
      streamed.map((m) => m.properties.speech),
      ['This is a longer reply of two sentences.', reply, reply],
    );
    assert.ok(written < 19 * 100, `written in ${Math.round(written)} ms, faster than the 19 words would be spoken`);
    assert.equal(client.audio.filter((f) => f.receivedAt > sentAt).length, 0, 'no audio in text mode');

    client.send({ type: 'text-mode', on: false });
    const spokenAt = performance.now();
    client.say('conversation.respond', { text: 'Now I speak.' });
    const spoken = await client.waitForEvent('conversation.utterance', replica('Now I speak.'));
    const words = client.events('conversation.utterance.streaming').filter((m) => m.inference_id === spoken.inference_id);
    assert.deepEqual(
      words.map((m) => m.properties.speech),
      ['Now', 'Now I', 'Now I speak.', 'Now I speak.'],
    );
    assert.ok(
      client.audio.some((f) => f.receivedAt > spokenAt),
      'the voice is back',
    );
    client.close();

    // Joined in text mode, the visitor gets even the greeting in writing.
    const texting = await insertConversation(t, { palId: echoPal, customGreeting: 'Welcome, reader.' });
    const reader = await RoomClient.open(texting.conversationUrl);
    reader.send({ type: 'join', meeting_token: texting.token, text_mode: true });
    await reader.waitForEvent('conversation.utterance', replica('Welcome, reader.'));
    assert.deepEqual(
      reader.events('conversation.utterance.streaming').map((m) => m.properties.speech),
      ['Welcome, reader.', 'Welcome, reader.'],
    );
    assert.equal(reader.audio.length, 0, 'no audio for a visitor who joined in text mode');
    reader.close();
  });

  it('delivers the disclosure before the greeting when the rules say so', async () => {
    const always = await insertPal(t, {
      pipelineMode: 'echo',
      definition: { disclosure_type: 'always', verbal_disclosure: 'I am an AI.', visual_disclosure: 'AI on screen' },
    });
    const auto = await insertPal(t, { pipelineMode: 'echo' });
    const off = await insertPal(t, { pipelineMode: 'echo', definition: { disclosure_type: 'off' } });

    const a = await insertConversation(t, { palId: always, customGreeting: 'Hello there.' });
    const client = await RoomClient.join(a.conversationUrl, a.token);
    await client.waitForEvent('conversation.utterance', replica('Hello there.'));
    const sequence = client
      .messages()
      .filter((m) => ['conversation.disclosure', 'conversation.utterance'].includes(m.event_type))
      .map((m) => (m.event_type === 'conversation.disclosure' ? `disclosure:${m.properties.state}` : m.properties.speech));
    assert.deepEqual(sequence, ['disclosure:delivering', 'I am an AI.', 'disclosure:delivered', 'Hello there.']);
    const banner = client.events('conversation.disclosure')[0]!;
    assert.deepEqual(banner.properties, { visual_disclosure: 'AI on screen', verbal_disclosure: 'I am an AI.', state: 'delivering' });
    client.close();
    // The conversation keeps a receipt of the disclosure it delivered, with the time.
    const receipt = await waitFor(
      async () => {
        const read = (await t.api('GET', `/v2/conversations/${a.conversationId}?verbose=true`)).body.receipt;
        return read?.disclosure ? read : undefined;
      },
      { what: 'the disclosure receipt' },
    );
    assert.deepEqual(
      { ...receipt.disclosure, delivered_at: typeof receipt.disclosure.delivered_at },
      { visual: 'AI on screen', verbal: 'I am an AI.', delivered_at: 'string' },
    );
    assert.ok(Math.abs(Date.parse(receipt.disclosure.delivered_at) - Date.now()) < 30_000);
    assert.equal(receipt.consent, null);

    const eu = await insertConversation(t, { palId: auto, customGreeting: 'Hi.', properties: { policy: 'eu' } });
    const euClient = await RoomClient.join(eu.conversationUrl, eu.token);
    await euClient.waitForEvent('conversation.utterance', replica('Hi.'));
    assert.deepEqual(
      euClient.events('conversation.disclosure').map((m) => m.properties),
      [
        { visual_disclosure: BUILT_IN_VISUAL_DISCLOSURE, verbal_disclosure: BUILT_IN_VERBAL_DISCLOSURE, state: 'delivering' },
        { visual_disclosure: BUILT_IN_VISUAL_DISCLOSURE, verbal_disclosure: BUILT_IN_VERBAL_DISCLOSURE, state: 'delivered' },
      ],
    );
    assert.equal(euClient.events('conversation.utterance')[0]!.properties.speech, BUILT_IN_VERBAL_DISCLOSURE);
    euClient.close();

    for (const [palId, properties] of [
      [auto, {}],
      [off, { policy: 'eu' }],
    ] as const) {
      const c = await insertConversation(t, { palId, customGreeting: 'Hi.', properties });
      const quiet = await RoomClient.join(c.conversationUrl, c.token);
      await quiet.waitForEvent('conversation.utterance', replica('Hi.'));
      assert.equal(quiet.events('conversation.disclosure').length, 0);
      assert.equal(quiet.events('conversation.utterance').length, 1);
      quiet.close();
      assert.equal(
        (await t.api('GET', `/v2/conversations/${c.conversationId}?verbose=true`)).body.receipt,
        null,
        'nothing disclosed, no receipt',
      );
    }
  });

  it("tells the visitor a recorded call is recorded, in the conversation's language", async () => {
    const off = await insertPal(t, { pipelineMode: 'echo', definition: { disclosure_type: 'off' } });
    const auto = await insertPal(t, { pipelineMode: 'echo' });
    const quiet = await insertConversation(t, { palId: off, customGreeting: 'Hi.', properties: { enable_recording: true } });
    const client = await RoomClient.join(quiet.conversationUrl, quiet.token);
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    assert.deepEqual(client.events('conversation.disclosure')[0]!.properties, {
      visual_disclosure: 'This call is recorded.',
      verbal_disclosure: 'This call is recorded.',
      state: 'delivering',
    });
    client.close();

    const de = await insertConversation(t, {
      palId: auto,
      customGreeting: 'Hallo.',
      properties: { enable_recording: true, policy: 'eu', languages: ['de'] },
    });
    const deClient = await RoomClient.join(de.conversationUrl, de.token);
    await deClient.waitForEvent('conversation.utterance', replica('Hallo.'));
    const banner = deClient.events('conversation.disclosure')[0]!.properties;
    assert.equal(banner.visual_disclosure, 'Sie sprechen mit einem KI-System. Dieses Gespräch wird aufgezeichnet.');
    assert.equal(banner.verbal_disclosure, 'Bevor wir anfangen: Ich bin ein KI-System, kein Mensch. Dieses Gespräch wird aufgezeichnet.');
    deClient.close();
  });

  it('an interrupt cuts a reply mid-sentence', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
    client.say('conversation.echo', { text: long });
    await client.waitForEvent('conversation.utterance.streaming', (m) => m.properties.speech === 'one two');
    client.say('conversation.interrupt');
    const last = await client.waitForEvent(
      'conversation.utterance.streaming',
      (m) => m.properties.final === true && m.properties.is_interrupted === true,
    );
    assert.ok(last.properties.speech.startsWith('one two'));
    assert.ok(last.properties.speech.length < long.length, 'the reply was cut');
    await client.waitForEvent('conversation.replica_interrupted');
    const stopped = await client.waitForEvent('conversation.replica.stopped_speaking', (m) => m.properties.interrupted === true);
    assert.equal(stopped.inference_id, last.inference_id);
    // A barrier instead of a wait: the room speaks in order, so the rest of the cut reply would come before this.
    client.say('conversation.echo', { text: 'After the cut.' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'After the cut.');
    assert.equal(client.events('conversation.utterance').filter((m) => m.properties.speech === long).length, 0);
    client.close();
  });

  it('full PALs stream answers from an OpenAI-compatible endpoint, with the context as overwritten and appended', async () => {
    await withLlm(async () => {
      const pal = await insertPal(t, { definition: { system_prompt: 'You are Ava, a travel guide.' } });
      const room = await insertConversation(t, {
        palId: pal,
        customGreeting: 'Hi.',
        conversationalContext: 'The visitor is planning a trip.',
      });
      const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
      await client.waitForEvent('conversation.utterance', replica('Hi.'));
      llm.reply = ['Lisbon', ' is lovely', ' in May.'];
      client.say('conversation.overwrite_llm_context', { context: 'The visitor likes the sea.' });
      client.say('conversation.append_llm_context', { context: 'Budget is small.' });
      client.say('conversation.respond', { text: 'Where should I go?' });
      await client.waitForEvent('conversation.utterance', replica('Lisbon is lovely in May.'));
      const request = llm.requests.at(-1)!;
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.body.stream, true);
      assert.equal(request.authorization, 'Bearer sk-test');
      const system = request.body.messages[0];
      assert.equal(system.role, 'system');
      assert.match(system.content, /travel guide/);
      assert.match(system.content, /The visitor likes the sea\.\nBudget is small\./);
      assert.doesNotMatch(system.content, /planning a trip/);
      assert.deepEqual(request.body.messages.at(-1), { role: 'user', content: 'Where should I go?' });
      const streamed = client
        .events('conversation.utterance.streaming')
        .filter((m) => m.turn_idx === 1)
        .map((m) => m.properties.speech);
      assert.deepEqual(streamed.slice(0, 2), ['Lisbon', 'Lisbon is']);
      client.close();
    });
  });

  it('without a language model, answers from pinned memories of the conversation’s stores', async () => {
    const { db } = t.service.deps;
    await db.insertInto('memory_stores').values({ memory_store_id: 'mdana', owner_id: 1, name: 'Dana' }).execute();
    await db
      .insertInto('pinned_memories')
      .values({ memory_id: 'pm1', memory_store_id: 'mdana', memory: "Dana's favourite colour is teal" })
      .execute();
    const pal = await insertPal(t);
    const room = await insertConversation(t, { palId: pal, customGreeting: 'Hi.', memoryStores: ['mdana'] });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    client.say('conversation.respond', { text: 'What is my favourite colour?' });
    const answer = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.turn_idx === 1);
    assert.match(answer.properties.speech, /teal/);
    client.close();
  });

  it('with magic_canvas, shows a calendar or question card and acknowledges the interaction', async () => {
    const pal = await insertPal(t, { canvas: {} });
    const room = await insertConversation(t, { palId: pal, customGreeting: 'Hi.' });
    // The page sends its time zone and language: the chosen slot is said as the visitor's clock reads it.
    const client = await RoomClient.join(room.conversationUrl, room.token, undefined, { time_zone: 'America/New_York', locale: 'en-US' });
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    client.say('conversation.respond', { text: 'Can I schedule a meeting with you?' });
    const call = await client.waitForEvent('conversation.tool_call');
    assert.equal(call.properties.name, 'canvas_show_calendar');
    const args = JSON.parse(call.properties.arguments);
    assert.equal(args.display_mode, 'inline');
    assert.equal(args.layout.preferred_slot, 'safe-area-right');
    assert.ok(args.slots.length >= 2);
    const slot = args.slots[1];
    const posted = await t.api(
      'POST',
      `/v2/conversations/${room.conversationId}/canvas/interactions`,
      {
        interaction_id: `ci_${call.properties.tool_call_id}_submit_1`,
        tool_call_id: call.properties.tool_call_id,
        component: 'canvas.calendar',
        component_version: 'v1',
        type: 'submit',
        value: { selected_slot: slot },
      },
      { key: null },
    );
    assert.equal(posted.status, 200);
    const ack = await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && /it is\.$/.test(m.properties.speech),
    );
    const newYork = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/New_York',
    }).format(new Date(slot));
    assert.equal(ack.properties.speech, `Great, ${newYork} it is.`);
    assert.match(ack.properties.speech, /(?:5|9):00\sAM/, 'a 10:00 or 14:00 UTC slot is 5 or 9 AM in New York (November)');
    assert.doesNotMatch(ack.properties.speech, /UTC|\d{4}-\d\d-\d\d/, 'no machine time');
    const clear = await client.waitForEvent('conversation.tool_call', (m) => m.properties.name === 'canvas_clear');
    assert.equal(clear.properties.arguments, '{}');
    assert.equal(client.events('canvas.interaction').length, 1);

    client.say('conversation.respond', { text: 'Help me choose between tea, coffee or water' });
    const question = await client.waitForEvent('conversation.tool_call', (m) => m.properties.name === 'canvas_show_question');
    assert.deepEqual(
      JSON.parse(question.properties.arguments).options.map((o: { label: string }) => o.label),
      ['tea', 'coffee', 'water'],
    );
    client.close();

    const echoRoom = await insertConversation(t, {
      palId: await insertPal(t, { pipelineMode: 'echo', canvas: {} }),
      customGreeting: 'Hi.',
    });
    const echoClient = await RoomClient.join(echoRoom.conversationUrl, echoRoom.token);
    echoClient.say('conversation.respond', { text: 'schedule a meeting' });
    await echoClient.waitForEvent('conversation.utterance', replica('schedule a meeting'));
    assert.equal(echoClient.events('conversation.tool_call').length, 0, 'the skill has no effect on echo PALs');
    echoClient.close();
  });

  it('lets an operator push protocol messages into a live room', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const path = `/v2/conversations/${room.conversationId}/events`;
    const early = await t.api('POST', path, { event_type: 'conversation.echo', properties: { text: 'nobody here' } });
    assert.equal(early.status, 409);
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    const tool = await t.api('POST', path, {
      event_type: 'conversation.tool_call',
      properties: { name: 'canvas_show_alert', arguments: '{"body":"Heads up"}', tool_call_id: 'call_op1' },
    });
    assert.equal(tool.status, 200);
    assert.deepEqual(tool.body, { delivered: true, participants: 1 });
    const pushed = await client.waitForEvent('conversation.tool_call');
    assert.equal(pushed.properties.tool_call_id, 'call_op1');
    assert.equal(pushed.conversation_id, room.conversationId);
    const palFrame = client.frames.find(
      (f) => f.type === 'app-message' && (f.data as { event_type?: string }).event_type === 'conversation.tool_call',
    );
    assert.ok(palFrame?.type === 'app-message' && palFrame.from.startsWith('pal_'));
    assert.equal((await t.api('POST', path, { event_type: 'conversation.echo', properties: { text: 'pushed words' } })).status, 200);
    await client.waitForEvent('conversation.utterance', replica('pushed words'));
    assert.equal((await t.api('POST', path, { event_type: 'conversation.echo' }, { key: 'test-key-owner-2' })).status, 404);
    assert.equal((await t.api('POST', path, { properties: {} })).status, 400);
    // A canvas card the elements could not show is refused here, naming the field, instead of vanishing.
    const badCard = await t.api('POST', path, {
      event_type: 'conversation.tool_call',
      properties: {
        name: 'canvas_show_question',
        arguments: JSON.stringify({ question: 'Size?', options: ['S', 'M'] }),
        tool_call_id: 'call_bad',
      },
    });
    assert.equal(badCard.status, 400);
    assert.match(badCard.body.error, /^invalid_request: properties\.arguments: options\.0/);
    const objectArgs = await t.api('POST', path, {
      event_type: 'conversation.tool_call',
      properties: { name: 'canvas_show_alert', arguments: { body: 'x' }, tool_call_id: 'call_obj' },
    });
    assert.equal(objectArgs.status, 400);
    assert.equal(client.events('conversation.tool_call').length, 1, 'neither reached the room');
    const ownTool = await t.api('POST', path, {
      event_type: 'conversation.tool_call',
      properties: { name: 'lookup_order', arguments: { anything: true }, tool_call_id: 'call_own' },
    });
    assert.equal(ownTool.status, 200, "the page's own tools are not canvas actions");
    assert.equal((await t.api('POST', path, { event_type: 'x' }, { key: null })).status, 401);
    client.close();
  });

  it('answers a card pushed in its name like one it showed itself (by the option label)', async () => {
    const room = await insertConversation(t, { palId: echoPal, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    const args = {
      question: 'Which plan?',
      options: [
        { id: 'starter', label: 'Starter' },
        { id: 'team', label: 'Team' },
      ],
    };
    const pushed = await t.api('POST', `/v2/conversations/${room.conversationId}/events`, {
      event_type: 'conversation.tool_call',
      properties: { name: 'canvas_show_question', arguments: JSON.stringify(args), tool_call_id: 'call_q1' },
    });
    assert.equal(pushed.status, 200);
    const recorded = await t.api(
      'POST',
      `/v2/conversations/${room.conversationId}/canvas/interactions`,
      {
        interaction_id: 'ci_call_q1_submit_1',
        tool_call_id: 'call_q1',
        component: 'canvas.question',
        component_version: 'v1',
        type: 'submit',
        value: { selected_option_ids: ['team'], skipped: false },
      },
      { key: null },
    );
    assert.equal(recorded.status, 200);
    await client.waitForEvent('conversation.utterance', replica('Thanks, you chose Team.'));
    client.close();
  });
});
