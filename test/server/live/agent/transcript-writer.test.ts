// The PAL's transcript writes (live/agent/transcript-writer.ts) on the real database, both legs: turns are
// inserted in the order they were recorded, whatever each waits for, and a failed write ends no other; a
// write the database cannot take now is tried again (on the test's clock), in order, for a bounded time;
// the PAL's utterance is stored while it is heard, marked interrupted until it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadTranscript } from '../../../../src/server/resources/conversations/transcript-store.js';
import { TranscriptWriter, type RecordedTurn } from '../../../../src/server/live/agent/transcript-writer.js';
import type { Logger } from '../../../../src/server/platform/log.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { ManualClock } from '../../../helpers/clock.js';
import type { Db } from '../../../../src/server/platform/db/database.js';
import { insertConversation, insertPal } from '../../../helpers/live-fixtures.js';

describe('transcript writer', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService();
    palId = await insertPal(t, { pipelineMode: 'echo' });
  });
  after(() => t.close());

  const errors: Array<Record<string, unknown> | undefined> = [];
  const log: Logger = { error: (_msg, fields) => errors.push(fields), info: () => undefined, debug: () => undefined };
  const startedAt = new Date('2026-11-26T10:00:00Z');
  const writerFor = async (db?: Db, clock?: ManualClock) => {
    const { conversationId } = await insertConversation(t, { palId });
    return { conversationId, writer: new TranscriptWriter(db ?? t.service.deps.db, log, conversationId, startedAt, clock) };
  };
  const rows = (conversationId: string) =>
    t.service.deps.db
      .selectFrom('conversation_transcript_entries')
      .select(['role', 'content', 'interrupted'])
      .where('conversation_id', '=', conversationId)
      .orderBy('entry_id')
      .execute();

  /** The database as a restart leaves it for a while: the next `failures` statements fail to connect. */
  function unreachableFor(failures: () => boolean): Db {
    const wrap = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(object, property, receiver) {
          const value = Reflect.get(object, property, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (String(property).startsWith('execute') && failures())
              return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
            const out = (value as (...a: unknown[]) => unknown).apply(object, args);
            return out && typeof out === 'object' && 'execute' in out ? wrap(out) : out;
          };
        },
      });
    return wrap(t.service.deps.db);
  }

  it('inserts the turns in the order they were recorded, one waiting for its hand-off holding back those after it', async () => {
    const { conversationId, writer } = await writerFor();
    const at = new Date(startedAt.getTime() + 500);
    let handOff!: () => void;
    // The visitor's question waits for the hand-off of its answer (pal-agent.ts); the answer, begun at the
    // same instant on a clock that stands still, is recorded while it waits.
    writer.record(
      { role: 'user', content: 'How long is this call?', ...writer.timing(at, 0), participant_name: 'Dana' },
      new Promise<void>((r) => (handOff = r)),
    );
    writer.record({ role: 'assistant', content: 'Two seconds.', ...writer.timing(at, 0.4) });
    assert.deepEqual(await loadTranscript(t.service.deps.db, conversationId), [], 'the answer waits for the question');
    handOff();
    await writer.settled();
    const transcript = await loadTranscript(t.service.deps.db, conversationId);
    assert.deepEqual(
      transcript.map((e) => [e.role, e.content, e.seconds_from_start]),
      [
        ['user', 'How long is this call?', 0.5],
        ['assistant', 'Two seconds.', 0.5],
      ],
    );
  });

  it('logs a write the database refuses and goes on with the next', async () => {
    const { conversationId, writer } = await writerFor();
    const at = new Date(startedAt.getTime() + 1000);
    writer.record({ role: 'user', content: null, ...writer.timing(at, 0) } as unknown as RecordedTurn);
    writer.record({ role: 'assistant', content: 'Still here.', ...writer.timing(at, 0.3) });
    await writer.drained();
    assert.deepEqual(
      (await loadTranscript(t.service.deps.db, conversationId)).map((e) => e.content),
      ['Still here.'],
    );
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.conversation_id, conversationId);
  });

  it('tries a write again while the database is away, the turns after it waiting, in order', async () => {
    const clock = new ManualClock();
    let away = 3;
    const { conversationId, writer } = await writerFor(
      unreachableFor(() => away-- > 0),
      clock,
    );
    const at = new Date(startedAt.getTime() + 2000);
    writer.record({ role: 'user', content: 'Are you there?', ...writer.timing(at, 0) });
    writer.record({ role: 'assistant', content: 'I am.', ...writer.timing(at, 0.2) });
    await clock.drain();
    assert.deepEqual(await rows(conversationId), [], 'nothing written while the database is away');
    await clock.advance(100 + 200 + 400);
    await writer.drained();
    assert.deepEqual(
      (await rows(conversationId)).map((r) => r.content),
      ['Are you there?', 'I am.'],
    );
  });

  it('gives a write up after a minute of the database away, and goes on with the next', async () => {
    const clock = new ManualClock();
    const failing = { on: true };
    const before = errors.length;
    const { conversationId, writer } = await writerFor(
      unreachableFor(() => failing.on),
      clock,
    );
    const at = new Date(startedAt.getTime() + 3000);
    writer.record({ role: 'user', content: 'Lost?', ...writer.timing(at, 0) });
    writer.record({ role: 'assistant', content: 'Kept.', ...writer.timing(at, 0.2) });
    await clock.advance(59_000);
    assert.equal(errors.length, before, 'still trying');
    await clock.advance(2_500);
    assert.equal(errors.length, before + 1, 'given up after a minute');
    failing.on = false;
    await clock.advance(2_000);
    await writer.drained();
    assert.deepEqual(
      (await rows(conversationId)).map((r) => r.content),
      ['Kept.'],
    );
    assert.equal(errors.length, before + 1);
  });

  it("stores the PAL's utterance as it is heard, marked interrupted until it ends", async () => {
    const clock = new ManualClock();
    const { conversationId, writer } = await writerFor(undefined, clock);
    const began = new Date(startedAt.getTime() + 4000);
    const heard = (content: string) => writer.progress({ role: 'assistant', content, ...writer.timing(began, 0.5), inference_id: 'inf_1' });
    heard('Rome was');
    await writer.settled();
    assert.deepEqual(
      await rows(conversationId),
      [{ role: 'assistant', content: 'Rome was', interrupted: true }],
      'written at its first words',
    );
    heard('Rome was not built');
    heard('Rome was not built in a day.');
    await writer.settled();
    assert.equal((await rows(conversationId))[0]!.content, 'Rome was', 'at most every 500 ms');
    await clock.advance(500);
    await writer.settled();
    assert.deepEqual(await rows(conversationId), [{ role: 'assistant', content: 'Rome was not built in a day.', interrupted: true }]);
    writer.record({
      role: 'assistant',
      content: 'Rome was not built in a day. It grew.',
      ...writer.timing(began, 1.5),
      inference_id: 'inf_1',
    });
    await writer.drained();
    assert.deepEqual(
      await rows(conversationId),
      [{ role: 'assistant', content: 'Rome was not built in a day. It grew.', interrupted: false }],
      'one row, completed',
    );
  });
});
