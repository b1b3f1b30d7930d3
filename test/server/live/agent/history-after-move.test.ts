// A room that opens again (its instance stopped or died, the visitor joined again elsewhere) rebuilds its
// PAL's history from the stored transcript (live/agent/history.ts): the language model's first request
// after the move carries the visitor's and the PAL's turns, the cut one marked; and the PAL's reply is
// stored while it is written, marked interrupted until it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { ManualClock } from '../../../helpers/clock.js';
import { appendTranscriptEntry } from '../../../../src/server/resources/conversations/transcript-store.js';
import { historyOf, INTERRUPTED_MARK } from '../../../../src/server/live/agent/history.js';
import { UNANSWERED_WAIT_MS } from '../../../../src/server/live/agent/pal-agent.js';

describe('the PAL remembers the conversation when its room moves', () => {
  let t: TestService;
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm();
    t = await startListeningService({ PALKIT_LLM_BASE_URL: llm.baseUrl, PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8' });
  });
  after(async () => {
    await t.close();
    await llm.close();
  });

  it("the stored turns become the model's history, a cut PAL turn marked and empty ones left out", () => {
    assert.deepEqual(
      historyOf([
        { role: 'assistant', content: 'Hi.', timestamp: 1 },
        { role: 'user', content: 'Tell me about Rome.', timestamp: 2 },
        { role: 'assistant', content: 'Rome was not built', timestamp: 3, interrupted: true },
        { role: 'assistant', content: ' ', timestamp: 4 },
      ]),
      [
        { role: 'assistant', content: 'Hi.' },
        { role: 'user', content: 'Tell me about Rome.' },
        { role: 'assistant', content: `Rome was not built ${INTERRUPTED_MARK}` },
      ],
    );
  });

  it("a room opened again: the model's first request carries the conversation so far, and no greeting is said again", async () => {
    const room = await insertConversation(t, { palId: await insertPal(t), customGreeting: 'Hi.' });
    const { db } = t.service.deps;
    const began = new Date(Date.now() - 60_000);
    await db.updateTable('conversations').set({ live_started_at: began }).where('conversation_id', '=', room.conversationId).execute();
    const turns: Array<[role: 'user' | 'assistant', content: string, interrupted?: boolean]> = [
      ['assistant', 'Hi.'],
      ['user', 'What is the capital of France?'],
      ['assistant', 'Paris.'],
      ['user', 'Tell me about Rome.'],
      ['assistant', 'Rome was not built in a day.', true],
    ];
    for (const [i, [role, content, interrupted]] of turns.entries()) {
      await appendTranscriptEntry(db, room.conversationId, {
        role,
        content,
        timestamp: began.getTime() / 1000 + i,
        seconds_from_start: i,
        duration: 0.5,
        ...(interrupted ? { interrupted } : {}),
      });
    }
    const client = await RoomClient.join(room.conversationUrl, room.token);
    const requests = llm.requests.length;
    llm.reply = ['Yes, ', 'I am still here.'];
    client.say('conversation.respond', { text: 'Are you still there?' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica', 10_000);
    const asked = llm.requests.slice(requests).filter((r) => r.path === '/v1/chat/completions');
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]!.body.messages.slice(1), [
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'Tell me about Rome.' },
      { role: 'assistant', content: `Rome was not built in a day. ${INTERRUPTED_MARK}` },
      { role: 'user', content: 'Are you still there?' },
    ]);
    assert.deepEqual(
      client
        .events('conversation.utterance')
        .filter((m) => m.properties.role === 'replica')
        .map((m) => m.properties.speech),
      ['Yes, I am still here.'],
      'no greeting again',
    );
    client.close();
  });

  it("the PAL's reply is in the transcript while it is written, marked interrupted until it ends", async () => {
    const room = await insertConversation(t, { palId: await insertPal(t), customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    client.send({ type: 'text-mode', on: true });
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 10_000);
    llm.reply = ['Rome was not built in a day. ', 'It grew over centuries. ', 'And it is still here.'];
    llm.chunkDelayMs = 400;
    client.say('conversation.respond', { text: 'Tell me about Rome.' });
    const rows = () =>
      t.service.deps.db
        .selectFrom('conversation_transcript_entries')
        .select(['role', 'content', 'interrupted'])
        .where('conversation_id', '=', room.conversationId)
        .orderBy('entry_id')
        .execute();
    const reply = async () => (await rows()).find((r) => r.role === 'assistant' && r.content !== 'Hi.');
    const during = await waitFor(reply, { what: 'the reply stored while it is written' });
    assert.equal(during.interrupted, true, 'marked interrupted until it ends');
    assert.match(during.content, /^Rome was not built in a day\./);
    assert.equal(client.events('conversation.replica.stopped_speaking').length, 1, 'the reply is still being written');
    const done = await waitFor(async () => ((await reply())?.interrupted === false ? reply() : undefined), { what: 'the reply completed' });
    assert.deepEqual(done, {
      role: 'assistant',
      content: 'Rome was not built in a day. It grew over centuries. And it is still here.',
      interrupted: false,
    });
    assert.equal((await rows()).filter((r) => r.role === 'assistant').length, 2, 'one row for the reply');
    llm.chunkDelayMs = 5;
    client.close();
  });
});

describe("a turn its last room never answered is answered by the room opened again, once (on the test's clock)", () => {
  let t: TestService;
  let llm: FakeLlm;
  const clock = new ManualClock();
  before(async () => {
    llm = await startFakeLlm();
    t = await startListeningService({ PALKIT_LLM_BASE_URL: llm.baseUrl, PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8' }, { clock });
  });
  after(async () => {
    await t.close();
    await llm.close();
  });

  /** A reopened room whose stored conversation ends on the visitor's turn its last room never answered. */
  async function reopenedOnAQuestion(): Promise<{ conversationId: string; client: RoomClient }> {
    const room = await insertConversation(t, { palId: await insertPal(t), customGreeting: 'Hi.' });
    const { db } = t.service.deps;
    const now = clock.now().getTime();
    await db
      .updateTable('conversations')
      .set({ live_started_at: new Date(now - 10_000) })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    await appendTranscriptEntry(db, room.conversationId, {
      role: 'assistant',
      content: 'Hi.',
      timestamp: (now - 9_000) / 1000,
      seconds_from_start: 1,
      duration: 0.5,
    });
    await appendTranscriptEntry(db, room.conversationId, {
      role: 'user',
      content: 'Are you still there?',
      timestamp: (now - 1_000) / 1000,
      seconds_from_start: 9,
      duration: 0,
    });
    llm.chunkDelayMs = 5;
    llm.reply = ['Yes, ', 'I am still here.'];
    return { conversationId: room.conversationId, client: await RoomClient.join(room.conversationUrl, room.token) };
  }
  const stored = (conversationId: string) =>
    t.service.deps.db
      .selectFrom('conversation_transcript_entries')
      .select(['role', 'content'])
      .where('conversation_id', '=', conversationId)
      .orderBy('entry_id')
      .execute();
  const replies = (client: RoomClient) =>
    client
      .events('conversation.utterance')
      .filter((m) => m.properties.role === 'replica')
      .map((m) => m.properties.speech);

  it('a turn the last room stored but never answered is answered by the room opened again, once', async () => {
    const requests = llm.requests.length;
    const { conversationId, client } = await reopenedOnAQuestion();
    await clock.advance(UNANSWERED_WAIT_MS - 1);
    assert.equal(llm.requests.length, requests, 'the page is given a moment to send it again');
    await clock.advance(1);
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica', 10_000);
    assert.deepEqual(replies(client), ['Yes, I am still here.']);
    const asked = llm.requests.slice(requests).filter((r) => r.path === '/v1/chat/completions');
    assert.deepEqual(
      asked.map((r) => r.body.messages.slice(1)),
      [
        [
          { role: 'assistant', content: 'Hi.' },
          { role: 'user', content: 'Are you still there?' },
        ],
      ],
    );
    await waitFor(async () => (await stored(conversationId)).at(-1)?.content === 'Yes, I am still here.', {
      what: 'the answer stored whole',
    });
    assert.deepEqual(
      (await stored(conversationId)).map((r) => r.content),
      ['Hi.', 'Are you still there?', 'Yes, I am still here.'],
    );
    client.close();
  });

  it('the page sending that turn again as it joins (its outbox) gets it answered and stored once', async () => {
    const requests = llm.requests.length;
    const { conversationId, client } = await reopenedOnAQuestion();
    client.say('conversation.respond', { text: 'Are you still there?' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica', 10_000);
    await waitFor(async () => (await stored(conversationId)).at(-1)?.content === 'Yes, I am still here.', {
      what: 'the answer stored whole',
    });
    await clock.advance(UNANSWERED_WAIT_MS); // past the room's own wait for the page
    await clock.drain();
    assert.deepEqual(replies(client), ['Yes, I am still here.'], 'answered once');
    assert.equal(llm.requests.slice(requests).filter((r) => r.path === '/v1/chat/completions').length, 1);
    assert.deepEqual(
      (await stored(conversationId)).map((r) => r.content),
      ['Hi.', 'Are you still there?', 'Yes, I am still here.'],
      'stored once',
    );
    assert.equal(client.events('conversation.utterance').filter((m) => m.properties.role === 'user').length, 0, 'not announced again');
    client.close();
  });
});
